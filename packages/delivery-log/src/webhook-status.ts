export type LeadWebhookStatus = 'not_verified' | 'rejecting' | 'verified';

/** Of the 50 webhook attempts kept, the setup panel shows the newest 20. */
export const WEBHOOK_LOG_SHOWN = 20;

/** The only answer that means a lead was accepted (a duplicate_event replay is one too). */
const ACCEPTED = 200;

/** A logged webhook attempt, as much of it as the status needs. */
export interface WebhookAttemptOutcome {
  statusCode: number;
  /** False: a summary of attempts refused before their signature verified, which never decides. */
  authenticated?: boolean;
  /** The lead an accepted attempt named (a duplicate names the first delivery's lead). */
  leadId?: string | null;
}

/** A logged webhook attempt, with the time it arrived: what the 24-hour window is measured on. */
export interface TimedWebhookAttempt extends WebhookAttemptOutcome {
  createdAt: Date;
}

/** How far back a stored lead keeps the status Verified after a refusal. */
const VERIFIED_WINDOW_MS = 24 * 3600 * 1000;

/**
 * The lead webhook status, derived from the webhook delivery log (newest first) and which of the
 * leads it names are stored: Not verified (nothing settled ever arrived) > Verified (the newest
 * settled attempt was accepted and its lead is stored) > Rejecting events (the newest settled
 * attempt was refused). An accepted attempt is settled once the lead worker has committed its
 * lead: the gateway answers 200 when the lead is queued, so until then the attempt decides
 * nothing and the status is what the attempts before it say (the spec: "accepted and stored").
 * A 500 storage_failed or a 503 counts as refused: no lead was stored.
 * Decided where the spec is silent (a refusal after stored leads), as for the crawl status: a
 * refusal after a lead stored within the last 24 hours leaves the status Verified (the dialog
 * names the refusal and its fix, see latestWebhookRefusal); Rejecting events holds once every
 * settled attempt of the last 24 hours was refused. One stored lead after rejections is Verified.
 * Without `now` (attempts without times) the newest settled attempt alone decides.
 * Only attempts whose signature verified count: a summary of those refused before (a zero
 * signature, no id, a stale timestamp) is skipped, so strangers cannot fake Rejecting events.
 */
export function leadWebhookStatus(
  attempts: readonly (WebhookAttemptOutcome & { createdAt?: Date })[],
  storedLeadIds: ReadonlySet<string>,
  now?: Date,
): LeadWebhookStatus {
  for (const attempt of attempts) {
    if (attempt.authenticated === false) continue;
    if (attempt.statusCode !== ACCEPTED)
      return storedWithinWindow(attempts, storedLeadIds, now) ? 'verified' : 'rejecting';
    if (isStoredLeadAttempt(attempt, storedLeadIds)) return 'verified';
  }
  return 'not_verified';
}

const storedWithinWindow = (
  attempts: readonly (WebhookAttemptOutcome & { createdAt?: Date })[],
  storedLeadIds: ReadonlySet<string>,
  now: Date | undefined,
) =>
  !!now &&
  attempts.some(
    (a) =>
      a.createdAt &&
      now.getTime() - a.createdAt.getTime() <= VERIFIED_WINDOW_MS &&
      isStoredLeadAttempt(a, storedLeadIds),
  );

/**
 * The newest settled attempt when it was refused while the status is still Verified (a lead was
 * stored within the last 24 hours): what the dialog warns about. Null otherwise.
 */
export function latestWebhookRefusal<T extends TimedWebhookAttempt>(
  attempts: readonly T[],
  storedLeadIds: ReadonlySet<string>,
  now: Date,
): T | null {
  if (leadWebhookStatus(attempts, storedLeadIds, now) !== 'verified') return null;
  const settled = attempts.find(
    (a) => a.authenticated !== false && (a.statusCode !== ACCEPTED || isStoredLeadAttempt(a, storedLeadIds)),
  );
  return settled && settled.statusCode !== ACCEPTED ? settled : null;
}

/** The leads the accepted attempts name: the ones whose storage decides the status. */
export const acceptedLeadIds = (attempts: readonly WebhookAttemptOutcome[]) => [
  ...new Set(attempts.flatMap((a) => (a.statusCode === ACCEPTED && a.leadId ? [a.leadId] : []))),
];

/** Whether one logged attempt was accepted and its lead is stored. */
export const isStoredLeadAttempt = (attempt: WebhookAttemptOutcome, storedLeadIds: ReadonlySet<string>) =>
  attempt.statusCode === ACCEPTED && !!attempt.leadId && storedLeadIds.has(attempt.leadId);
