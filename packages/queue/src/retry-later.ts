/** The backoff type of a job whose processor says when it runs again (`RetryLaterError`). */
export const DELAY_FROM_ERROR_BACKOFF = 'delay-from-error';

/**
 * Thrown by a processor that knows when its job should be tried again (a receiver's Retry-After,
 * a schedule of its own with jitter): the attempt fails, and BullMQ waits `delayMs` before the
 * next one instead of a fixed exponential delay.
 */
export class RetryLaterError extends Error {
  override name = 'RetryLaterError';
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** What failed without saying when to retry (Postgres away, say): 1 s, doubling, at most a minute. */
const FALLBACK_MAX_MS = 60_000;

/** BullMQ's custom backoff for `DELAY_FROM_ERROR_BACKOFF`: the error's delay, or the fallback. */
export function delayFromError(attemptsMade: number, _type?: string, err?: Error): number {
  if (err instanceof RetryLaterError) return Math.max(0, Math.round(err.delayMs));
  return Math.min(1000 * 2 ** Math.max(0, attemptsMade - 1), FALLBACK_MAX_MS);
}
