// When a failed delivery is tried again, and whether it is: pure, so the schedule is tested
// without waiting for it.

export interface RetrySchedule {
  /** The delay after the first failed attempt. */
  firstDelayMs: number;
  /** Each later delay is this many times the one before… */
  factor: number;
  /** …up to this. Also the most a receiver's Retry-After is honoured for. */
  maxDelayMs: number;
  /** Each delay is spread by ± this fraction, so receivers that failed together are not retried together. */
  jitter: number;
}

/**
 * 30 s, 2 min, 8 min, 32 min, about 2 h, 8.5 h and 12 h between the 8 attempts
 * (WEBHOOK_DELIVERY_MAX_ATTEMPTS): the last one about 23 hours after the first, so a receiver
 * down for most of a day still gets the alert.
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  firstDelayMs: 30_000,
  factor: 4,
  maxDelayMs: 12 * 3600_000,
  jitter: 0.2,
};

/**
 * The delay after failed attempt `attempt` (1-based). A receiver's Retry-After is honoured when
 * it asks for longer than the schedule would wait (never sooner: a receiver answering
 * `Retry-After: 0` to every attempt would otherwise get them all at once), up to the cap.
 */
export function retryDelayMs(
  attempt: number,
  schedule: RetrySchedule,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(schedule.firstDelayMs * schedule.factor ** Math.max(0, attempt - 1), schedule.maxDelayMs);
  const jittered = base * (1 - schedule.jitter + 2 * schedule.jitter * random());
  const wanted = retryAfterMs === undefined ? jittered : Math.max(jittered, retryAfterMs);
  return Math.round(Math.min(wanted, schedule.maxDelayMs));
}

/** Retry-After in milliseconds: seconds, or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday or month; Date.parse alone would read "-5" as a year.
  const at = /^[A-Za-z]{3},? /.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * What a receiver's status means: any 2xx delivered it; 408, 429 and 5xx are worth another try;
 * anything else (a 3xx included: redirects are not followed, 400, 401, 404, 410, …) is the
 * receiver refusing it, which trying again will not change.
 */
export function statusVerdict(status: number): 'delivered' | 'retry' | 'permanent' {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429 || (status >= 500 && status < 600)) return 'retry';
  return 'permanent';
}
