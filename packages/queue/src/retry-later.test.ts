import { describe, expect, it } from 'vitest';
import { delayFromError, RetryLaterError } from './retry-later.ts';

// The custom backoff of jobs whose processor says when to retry: its delay when it says one, a
// bounded doubling when it failed some other way.

describe('delayFromError', () => {
  it('is the delay a RetryLaterError carries, whatever the attempt', () => {
    expect(delayFromError(1, 'delay-from-error', new RetryLaterError(123_456, 'later'))).toBe(123_456);
    expect(delayFromError(7, 'delay-from-error', new RetryLaterError(50.4, 'soon'))).toBe(50);
    expect(delayFromError(2, 'delay-from-error', new RetryLaterError(-5, 'never negative'))).toBe(0);
  });

  it('falls back to 1 s doubling per attempt, at most a minute, for any other failure', () => {
    expect([1, 2, 3, 7, 20].map((n) => delayFromError(n, 'delay-from-error', new Error('db away')))).toEqual([
      1000, 2000, 4000, 60_000, 60_000,
    ]);
    expect(delayFromError(1)).toBe(1000);
  });
});
