import { WEBHOOK_DELIVERY_MAX_ATTEMPTS } from '@vt/queue';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, parseRetryAfter, retryDelayMs, statusVerdict } from './retry-schedule.ts';

// The retry schedule on its own: exponential with jitter, about a day over the attempts, a
// receiver's Retry-After honoured when longer and capped, and which answers are worth another try.

const middle = () => 0.5; // no jitter either way
const HOUR = 3600_000;

describe('retryDelayMs', () => {
  it('grows fourfold from 30 s to the 12 h cap, the last attempt about a day after the first', () => {
    const delays = Array.from({ length: WEBHOOK_DELIVERY_MAX_ATTEMPTS - 1 }, (_, n) =>
      retryDelayMs(n + 1, DEFAULT_RETRY_SCHEDULE, undefined, middle),
    );
    expect(delays).toEqual([30_000, 120_000, 480_000, 1_920_000, 7_680_000, 30_720_000, 12 * HOUR]);
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * HOUR);
    expect(total).toBeLessThan(26 * HOUR);
  });

  it('spreads each delay by at most ±20 %, never past the cap', () => {
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, undefined, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, undefined, () => 0.999_999)).toBe(36_000);
    expect(retryDelayMs(7, DEFAULT_RETRY_SCHEDULE, undefined, () => 0.999_999)).toBe(12 * HOUR);
  });

  it('honours a longer Retry-After, never a shorter one, up to the cap', () => {
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, 600_000, middle)).toBe(600_000);
    expect(retryDelayMs(3, DEFAULT_RETRY_SCHEDULE, 0, middle)).toBe(480_000);
    expect(retryDelayMs(1, DEFAULT_RETRY_SCHEDULE, 7 * 24 * HOUR, middle)).toBe(12 * HOUR);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  it('reads seconds and HTTP dates; ignores what it cannot read', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 5 ', now)).toBe(5000);
    expect(parseRetryAfter('Thu, 26 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Thu, 26 Nov 2026 09:00:00 GMT', now)).toBe(0);
    for (const junk of [undefined, '', 'soon', '-5', '1e9', '99999999999'])
      expect(parseRetryAfter(junk, now)).toBeUndefined();
  });
});

describe('statusVerdict', () => {
  it('2xx delivers; 408, 429 and 5xx retry; any other answer, redirects included, is final', () => {
    expect([200, 201, 202, 204, 299].map(statusVerdict)).toEqual(Array(5).fill('delivered'));
    expect([408, 429, 500, 502, 503, 504, 599].map(statusVerdict)).toEqual(Array(7).fill('retry'));
    expect([100, 301, 302, 307, 308, 400, 401, 403, 404, 410, 413, 422].map(statusVerdict)).toEqual(
      Array(12).fill('permanent'),
    );
  });
});
