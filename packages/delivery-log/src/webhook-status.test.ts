import { describe, expect, it } from 'vitest';
import { acceptedLeadIds, isStoredLeadAttempt, latestWebhookRefusal, leadWebhookStatus } from './webhook-status.ts';

// Attempts newest first: a number is a refusal's status code, a string an accepted lead's id.
const attempts = (...outcomes: (number | string)[]) =>
  outcomes.map((o) => (typeof o === 'number' ? { statusCode: o } : { statusCode: 200, leadId: o }));
const stored = (...ids: string[]) => new Set(ids);

describe('leadWebhookStatus (newest attempt first)', () => {
  it('[LEAD-16] Not verified when nothing has ever arrived', () => {
    expect(leadWebhookStatus([], stored())).toBe('not_verified');
  });

  it('[LEAD-16] Verified when the most recent attempt was accepted and its lead is stored', () => {
    expect(leadWebhookStatus(attempts('a'), stored('a'))).toBe('verified');
    expect(leadWebhookStatus(attempts('a', 401, 400, 413), stored('a'))).toBe('verified');
  });

  it('[LEAD-16] an accepted attempt whose lead is not stored yet decides nothing: the attempts before it do', () => {
    expect(leadWebhookStatus(attempts('a'), stored())).toBe('not_verified');
    expect(leadWebhookStatus(attempts('b', 'a'), stored('a'))).toBe('verified');
    expect(leadWebhookStatus(attempts('b', 401), stored())).toBe('rejecting');
    expect(leadWebhookStatus(attempts('b', 401), stored('b'))).toBe('verified');
  });

  it('[LEAD-16] Rejecting events when every attempt is rejected, whatever the reason', () => {
    for (const code of [400, 401, 413, 500, 503]) expect(leadWebhookStatus(attempts(code), stored())).toBe('rejecting');
    expect(leadWebhookStatus(attempts(401, 401, 400), stored())).toBe('rejecting');
  });

  it('[LEAD-16] without times, the newest attempt decides: a rejection after stored leads is Rejecting events', () => {
    expect(leadWebhookStatus(attempts(401, 'a', 'b'), stored('a', 'b'))).toBe('rejecting');
  });

  it('[LEAD-16] a refusal after a lead stored within 24 hours stays Verified, and names the refusal', () => {
    const now = new Date('2026-11-20T12:00:00Z');
    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3600 * 1000);
    const log = [
      { statusCode: 401, createdAt: at(0.5) },
      { statusCode: 200, leadId: 'a', createdAt: at(2) },
    ];
    expect(leadWebhookStatus(log, stored('a'), now)).toBe('verified');
    expect(latestWebhookRefusal(log, stored('a'), now)).toMatchObject({ statusCode: 401 });
    // The lead was not stored, or was stored over 24 hours ago: every recent attempt was refused.
    expect(leadWebhookStatus(log, stored(), now)).toBe('rejecting');
    const older = [log[0], { ...log[1], createdAt: at(25) }] as typeof log;
    expect(leadWebhookStatus(older, stored('a'), now)).toBe('rejecting');
    expect(latestWebhookRefusal(older, stored('a'), now)).toBeNull();
    // No warning while the newest settled attempt was a stored lead.
    expect(latestWebhookRefusal([...log].reverse(), stored('a'), now)).toBeNull();
  });

  it('only a 200 naming a stored lead counts as accepted and stored', () => {
    const outcomes = [
      { statusCode: 200, leadId: 'a' },
      { statusCode: 200, leadId: 'x' },
      { statusCode: 200 },
      { statusCode: 202, leadId: 'a' },
      { statusCode: 400, leadId: 'a' },
    ];
    expect(outcomes.map((o) => isStoredLeadAttempt(o, stored('a')))).toEqual([true, false, false, false, false]);
    expect(acceptedLeadIds([...outcomes, { statusCode: 200, leadId: 'a' }])).toEqual(['a', 'x']);
  });
});
