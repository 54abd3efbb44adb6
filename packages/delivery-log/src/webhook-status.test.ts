import { describe, expect, it } from 'vitest';
import { acceptedLeadIds, isStoredLeadAttempt, leadWebhookStatus } from './webhook-status.ts';

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

  it('[LEAD-16] the newest attempt decides: a rejection after stored leads is Rejecting events', () => {
    expect(leadWebhookStatus(attempts(401, 'a', 'b'), stored('a', 'b'))).toBe('rejecting');
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
