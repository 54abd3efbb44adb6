/** Every crawl connection status (CRAWL-30), in the order the dashboard and metrics list them. */
export const CRAWL_CONNECTION_STATUSES = [
  'not_verified',
  'connected',
  'rejecting',
  'nothing_arriving',
  'disconnected',
] as const;
export type CrawlConnectionStatus = (typeof CRAWL_CONNECTION_STATUSES)[number];

const NOTHING_ARRIVING_AFTER_MS = 24 * 3600 * 1000;

interface StatusInput {
  ingestionEnabled: boolean;
  /** Set on reconnect: attempts before it no longer count. */
  statusSince: Date | null;
  /** The crawl delivery log, newest first. */
  attempts: { createdAt: Date; statusCode: number }[];
  now: Date;
}

/**
 * The crawl connection status, derived from the delivery log:
 * Disconnected (ingestion off) > Not verified (nothing since the start or the last reconnect) >
 * Nothing arriving (nothing for 24 hours) > Connected (newest attempt accepted) > Rejecting.
 * Decided: "Rejecting" holds when the newest attempt was turned away; a single accepted batch
 * after rejections is Connected again, as the spec's "most recent was accepted" says.
 */
export function crawlConnectionStatus({
  ingestionEnabled,
  statusSince,
  attempts,
  now,
}: StatusInput): CrawlConnectionStatus {
  if (!ingestionEnabled) return 'disconnected';
  const counted = statusSince ? attempts.filter((a) => a.createdAt >= statusSince) : attempts;
  const newest = counted[0];
  if (!newest) return 'not_verified';
  if (now.getTime() - newest.createdAt.getTime() > NOTHING_ARRIVING_AFTER_MS) return 'nothing_arriving';
  return isAcceptedCrawlAttempt(newest) ? 'connected' : 'rejecting';
}

/**
 * A crawl batch the endpoint accepted: 202 from the spec's endpoint, 200 from a provider's (their
 * senders want 200). A named repeat (200) writes no row, so a 200 row is always a provider's.
 */
export const isAcceptedCrawlAttempt = (attempt: { statusCode: number }) =>
  attempt.statusCode === 202 || attempt.statusCode === 200;
