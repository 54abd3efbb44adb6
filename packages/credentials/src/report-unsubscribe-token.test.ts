import { describe, expect, it } from 'vitest';
import { deriveReportUnsubscribeToken, verifyReportUnsubscribeToken } from './index.ts';

const KEY = 'report-unsubscribe-key-0123456789abcdef';
const SUBSCRIPTION = '6f1c2b1e-8d0a-4c55-9b7e-1f2a3b4c5d6e';

describe('weekly report unsubscribe tokens', () => {
  it('name their subscription under the key that signed them, and nothing else', () => {
    const token = deriveReportUnsubscribeToken(KEY, SUBSCRIPTION);
    expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(verifyReportUnsubscribeToken(KEY, token)).toBe(SUBSCRIPTION);
    expect(verifyReportUnsubscribeToken(`${KEY}-rotated`, token)).toBeUndefined();
    // Another subscription's id with this MAC, a changed MAC, and shapes that are no token.
    const mac = token.slice(37);
    const other = '0a0b0c0d-1111-4222-8333-444455556666';
    for (const forged of [
      `${other}.${mac}`,
      `${SUBSCRIPTION}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      SUBSCRIPTION,
      `.${mac}`,
      `${SUBSCRIPTION}.${mac}${'A'.repeat(1000)}`,
      '',
    ]) {
      expect(verifyReportUnsubscribeToken(KEY, forged)).toBeUndefined();
    }
  });
});
