import { describe, expect, it } from 'vitest';
import { isAcceptedLeadAttempt, leadWebhookStatus } from './webhook-status.ts';

const attempts = (...codes: number[]) => codes.map((statusCode) => ({ statusCode }));

describe('leadWebhookStatus (newest attempt first)', () => {
  it('[LEAD-16] Not verified when nothing has ever arrived', () => {
    expect(leadWebhookStatus([])).toBe('not_verified');
  });

  it('[LEAD-16] Verified when the most recent attempt was accepted and stored', () => {
    expect(leadWebhookStatus(attempts(200))).toBe('verified');
    expect(leadWebhookStatus(attempts(200, 401, 400, 413))).toBe('verified');
  });

  it('[LEAD-16] Rejecting events when every attempt is rejected, whatever the reason', () => {
    for (const code of [400, 401, 413, 500, 503]) expect(leadWebhookStatus(attempts(code))).toBe('rejecting');
    expect(leadWebhookStatus(attempts(401, 401, 400))).toBe('rejecting');
  });

  it('[LEAD-16] the newest attempt decides: a rejection after accepted leads is Rejecting events', () => {
    expect(leadWebhookStatus(attempts(401, 200, 200))).toBe('rejecting');
  });

  it('only a 200 counts as accepted', () => {
    expect(attempts(200, 201, 202, 204, 400).map(isAcceptedLeadAttempt)).toEqual([true, false, false, false, false]);
  });
});
