export type LeadWebhookStatus = 'not_verified' | 'rejecting' | 'verified';

/** Of the 50 webhook attempts kept, the setup panel shows the newest 20. */
export const WEBHOOK_LOG_SHOWN = 20;

/** The only answer that means a lead was accepted and stored (a duplicate_event replay is one too). */
const ACCEPTED = 200;

/**
 * The lead webhook status, derived from the webhook delivery log (newest first):
 * Not verified (nothing ever arrived) > Verified (the newest attempt was accepted and stored) >
 * Rejecting events (the newest attempt was not). Decided, as for the crawl status: the newest
 * attempt decides, so one accepted lead after rejections is Verified again, and a rejection after
 * accepted leads turns the status to Rejecting until the sender is fixed. A 500 storage_failed or a
 * 503 counts as not accepted: no lead was stored.
 */
export function leadWebhookStatus(attempts: readonly { statusCode: number }[]): LeadWebhookStatus {
  const newest = attempts[0];
  if (!newest) return 'not_verified';
  return newest.statusCode === ACCEPTED ? 'verified' : 'rejecting';
}

/** Whether one logged attempt was accepted (answered 200 with a lead result). */
export const isAcceptedLeadAttempt = (attempt: { statusCode: number }) => attempt.statusCode === ACCEPTED;
