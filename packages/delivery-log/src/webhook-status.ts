export type LeadWebhookStatus = 'not_verified' | 'rejecting' | 'verified';

/** Of the 50 webhook attempts kept, the setup panel shows the newest 20. */
export const WEBHOOK_LOG_SHOWN = 20;

/** The only answer that means a lead was accepted (a duplicate_event replay is one too). */
const ACCEPTED = 200;

/** A logged webhook attempt, as much of it as the status needs. */
export interface WebhookAttemptOutcome {
  statusCode: number;
  /** The lead an accepted attempt named (a duplicate names the first delivery's lead). */
  leadId?: string | null;
}

/**
 * The lead webhook status, derived from the webhook delivery log (newest first) and which of the
 * leads it names are stored: Not verified (nothing settled ever arrived) > Verified (the newest
 * settled attempt was accepted and its lead is stored) > Rejecting events (the newest settled
 * attempt was refused). An accepted attempt is settled once the lead worker has committed its
 * lead: the gateway answers 200 when the lead is queued, so until then the attempt decides
 * nothing and the status is what the attempts before it say (the spec: "accepted and stored").
 * Decided, as for the crawl status: the newest settled attempt decides, so one stored lead after
 * rejections is Verified again, and a rejection after stored leads turns the status to Rejecting
 * until the sender is fixed. A 500 storage_failed or a 503 counts as refused: no lead was stored.
 */
export function leadWebhookStatus(
  attempts: readonly WebhookAttemptOutcome[],
  storedLeadIds: ReadonlySet<string>,
): LeadWebhookStatus {
  for (const attempt of attempts) {
    if (attempt.statusCode !== ACCEPTED) return 'rejecting';
    if (isStoredLeadAttempt(attempt, storedLeadIds)) return 'verified';
  }
  return 'not_verified';
}

/** The leads the accepted attempts name: the ones whose storage decides the status. */
export const acceptedLeadIds = (attempts: readonly WebhookAttemptOutcome[]) => [
  ...new Set(attempts.flatMap((a) => (a.statusCode === ACCEPTED && a.leadId ? [a.leadId] : []))),
];

/** Whether one logged attempt was accepted and its lead is stored. */
export const isStoredLeadAttempt = (attempt: WebhookAttemptOutcome, storedLeadIds: ReadonlySet<string>) =>
  attempt.statusCode === ACCEPTED && !!attempt.leadId && storedLeadIds.has(attempt.leadId);
