/** Every crawl connection status (CRAWL-30), in the order the dashboard and metrics list them. */
export const CRAWL_CONNECTION_STATUSES = [
  'not_verified',
  'connected',
  'rejecting',
  'nothing_arriving',
  'disconnected',
] as const;
export type CrawlConnectionStatus = (typeof CRAWL_CONNECTION_STATUSES)[number];

/** How long a quiet connection stays Connected, and how far back an accepted batch still counts. */
export const CONNECTION_WINDOW_MS = 24 * 3600 * 1000;

interface StatusInput {
  ingestionEnabled: boolean;
  /** Set on reconnect: attempts before it no longer count. */
  statusSince: Date | null;
  /**
   * The crawl delivery log, newest first. Only the newest attempt and the newest accepted one
   * decide, so a reader may pass just those two.
   */
  attempts: CountedAttempt[];
  now: Date;
}

/** A logged attempt, as much as the status needs; `authenticated` false marks a stranger's summary. */
interface CountedAttempt {
  createdAt: Date;
  statusCode: number;
  authenticated?: boolean;
}

/**
 * The attempts that may decide a status: since verification last (re)started, and from the
 * property's own senders. A summary of attempts with a wrong token never decides: anyone who
 * knows the property id can send those, and they must not turn a working connection Rejecting.
 */
const countedAttempts = <T extends CountedAttempt>(attempts: T[], statusSince: Date | null): T[] =>
  attempts.filter((a) => a.authenticated !== false && (!statusSince || a.createdAt >= statusSince));

/**
 * The crawl connection status, derived from the delivery log:
 * Disconnected (ingestion off) > Not verified (nothing since the start or the last reconnect) >
 * Nothing arriving (nothing for 24 hours) > Connected > Rejecting.
 * Decided where the spec is silent (its Connected says "the most recent was accepted", its
 * Rejecting "every one is turned away"; neither covers a refusal after accepted batches):
 * Connected holds while a batch was accepted within the last 24 hours, even when the newest
 * attempt was refused (the dialog then names that refusal and its fix, see latestCrawlRefusal);
 * Rejecting holds when every counted attempt of the last 24 hours was turned away. A single
 * accepted batch after rejections is Connected again. Only the property's own senders' attempts
 * count (a valid token): the spec's "batches" are the property's, and a request with a wrong token
 * proves nothing about whose it is (issue 33: strangers faked Rejecting with 50 junk tokens).
 */
export function crawlConnectionStatus({
  ingestionEnabled,
  statusSince,
  attempts,
  now,
}: StatusInput): CrawlConnectionStatus {
  if (!ingestionEnabled) return 'disconnected';
  const counted = countedAttempts(attempts, statusSince);
  const newest = counted[0];
  if (!newest) return 'not_verified';
  const recent = (a: { createdAt: Date }) => now.getTime() - a.createdAt.getTime() <= CONNECTION_WINDOW_MS;
  if (!recent(newest)) return 'nothing_arriving';
  return counted.some((a) => recent(a) && isAcceptedCrawlAttempt(a)) ? 'connected' : 'rejecting';
}

/**
 * The newest counted attempt when it was refused while the status is still Connected (an earlier
 * batch of the last 24 hours was accepted): what the dialog warns about. Null otherwise.
 */
export function latestCrawlRefusal<T extends CountedAttempt>(
  input: Omit<StatusInput, 'attempts'> & { attempts: T[] },
): T | null {
  if (crawlConnectionStatus(input) !== 'connected') return null;
  const newest = countedAttempts(input.attempts, input.statusSince)[0];
  return newest && !isAcceptedCrawlAttempt(newest) ? newest : null;
}

/**
 * A crawl batch the endpoint accepted: 202 from the spec's endpoint, 200 from a provider's (their
 * senders want 200). A named repeat (200) writes no row, so a 200 row is always a provider's.
 */
export const isAcceptedCrawlAttempt = (attempt: { statusCode: number }) =>
  attempt.statusCode === 202 || attempt.statusCode === 200;
