import { randomUUID } from 'node:crypto';
import { alertNotificationSchema } from '@vt/contracts';
import { deriveAlertWebhookSecret } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';
import { RetryLaterError, WEBHOOK_DELIVERY_MAX_ATTEMPTS, type WebhookDeliveryJobData } from '@vt/queue';
import { type PostResult, postWebhook } from './post-webhook.ts';
import {
  DEFAULT_RETRY_SCHEDULE,
  parseRetryAfter,
  type RetrySchedule,
  retryDelayMs,
  statusVerdict,
} from './retry-schedule.ts';
import { checkUrlShape, type TargetPolicy } from './target-guard.ts';
import { type WebhookFormat, webhookRequest } from './webhook-request.ts';

// The webhook-delivery job's processor: one attempt at one delivery. A worker app registers it
// (`jobWorker({contract: webhookDeliveryJob, handle: (data, attempt) => deliverWebhook(deps, data, attempt)})`).
//
// Exactly once, as far as a POST can be: an attempt starts by claiming the pending delivery
// (attempt count up, a lease that keeps any other worker off it), so a job replayed after the
// delivery succeeded or gave up finds nothing to claim and posts nothing, and two copies of a
// job never post at once. What it cannot rule out is a receiver that took the event but whose
// answer was lost: it gets the same `webhook-id` again, which is what Standard Webhooks tells
// receivers to deduplicate on.

export interface WebhookDeliveryDeps {
  db: PrismaClient;
  /** ALERT_WEBHOOK_SIGNING_KEY: signs standard events. */
  signingKey: string | undefined;
  policy: TargetPolicy;
  schedule?: RetrySchedule;
  /** The deadline of one attempt. */
  timeoutMs?: number;
  random?: () => number;
}

/** Like the queue shell's JobOutcome: applied, or why nothing was. */
export type DeliveryOutcome =
  | { applied: true }
  | { applied: false; reason: 'gone' | 'done_already' | 'in_progress' | 'disabled' | 'gave_up' };

/** Which attempt at its job BullMQ runs (the queue shell's JobAttempt). */
export interface DeliveryJobAttempt {
  made: number;
  of: number;
}

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** How long past the deadline a claim holds, for the attempt to be recorded. */
const LEASE_MARGIN_MS = 30_000;

interface Claimed {
  attempts: number;
  notification: unknown;
  destination_id: string;
  url: string;
  format: WebhookFormat;
  secret_version: number;
}

/** Why an attempt could not be claimed, and, for a disabled destination, the delivery closed. */
async function unclaimed(db: PrismaClient, deliveryId: string): Promise<DeliveryOutcome> {
  const [row] = await db.$queryRaw<{ status: string; leased: boolean; disabled: boolean }[]>`
    SELECT d.status::text, COALESCE(d.lease_until > now(), false) AS leased, w.disabled_at IS NOT NULL AS disabled
    FROM webhook_deliveries d JOIN webhook_destinations w ON w.id = d.destination_id
    WHERE d.id = ${deliveryId}::uuid`;
  if (!row) return { applied: false, reason: 'gone' };
  if (row.status !== 'pending') return { applied: false, reason: 'done_already' };
  if (row.leased) return { applied: false, reason: 'in_progress' };
  if (row.disabled) {
    await db.$executeRaw`
      UPDATE webhook_deliveries SET status = 'failed', completed_at = now(),
             last_error = 'The webhook was switched off before this could be delivered.'
      WHERE id = ${deliveryId}::uuid AND status = 'pending'`;
    return { applied: false, reason: 'disabled' };
  }
  return { applied: false, reason: 'in_progress' };
}

/** What one attempt came to, for the log and the delivery. */
interface AttemptRecord {
  statusCode: number | null;
  errorClass: string | null;
  snippet: string | null;
  durationMs: number;
  verdict: 'delivered' | 'retry' | 'permanent';
  retryAfterMs?: number | undefined;
}

function recordOf(result: PostResult, now: Date): AttemptRecord {
  if (result.kind === 'failed') {
    return {
      statusCode: null,
      errorClass: result.errorClass,
      snippet: null,
      durationMs: result.durationMs,
      // The guard refusing the host is a setting, not an outage: another try meets the same answer.
      verdict: result.errorClass === 'target_refused' ? 'permanent' : 'retry',
    };
  }
  return {
    statusCode: result.statusCode,
    errorClass: null,
    snippet: result.snippet || null,
    durationMs: result.durationMs,
    verdict: statusVerdict(result.statusCode),
    retryAfterMs: parseRetryAfter(result.retryAfter, now),
  };
}

/** An attempt that never reached the network (a setting refuses it), recorded like any other. */
const refusedBeforeSending = (errorClass: string): AttemptRecord => ({
  statusCode: null,
  errorClass,
  snippet: null,
  durationMs: 0,
  verdict: 'permanent',
});

/** Makes the attempt's request, or says which setting refuses it. */
function prepare(
  deps: WebhookDeliveryDeps,
  claimed: Claimed,
  at: Date,
): { url: URL; request: ReturnType<typeof webhookRequest> } | AttemptRecord {
  // Stored through the same schema; one that no longer reads is closed, not retried for ever.
  const parsed = alertNotificationSchema.safeParse(claimed.notification);
  if (!parsed.success) return refusedBeforeSending('invalid_notification');
  const notification = parsed.data;
  const shape = checkUrlShape(claimed.url, deps.policy);
  if (!shape.ok) return refusedBeforeSending('target_refused');
  if (claimed.format === 'standard' && !deps.signingKey) return refusedBeforeSending('not_configured');
  const signing =
    claimed.format === 'standard' && deps.signingKey
      ? { secret: deriveAlertWebhookSecret(deps.signingKey, claimed.destination_id, claimed.secret_version), at }
      : null;
  return { url: shape.url, request: webhookRequest(claimed.format, notification, signing) };
}

/** The delivery's error in words, for the console: a status or a class, never a message that may name addresses. */
const lastErrorOf = (record: AttemptRecord) =>
  record.statusCode !== null ? `HTTP ${record.statusCode}` : (record.errorClass ?? 'unknown');

/**
 * One attempt at delivery `deliveryId`. Retries by throwing `RetryLaterError` with the delay
 * (the schedule's, or the receiver's Retry-After when longer), after recording the attempt and
 * when the next is due; gives up after WEBHOOK_DELIVERY_MAX_ATTEMPTS or on a permanent refusal.
 */
export async function deliverWebhook(
  deps: WebhookDeliveryDeps,
  { deliveryId }: WebhookDeliveryJobData,
  jobAttempt?: DeliveryJobAttempt,
): Promise<DeliveryOutcome> {
  const { db } = deps;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const [claimed] = await db.$queryRaw<Claimed[]>`
    UPDATE webhook_deliveries d
    SET attempts = d.attempts + 1, lease_until = now() + ${timeoutMs + LEASE_MARGIN_MS}::float8 * interval '1 millisecond'
    FROM webhook_destinations w
    WHERE d.id = ${deliveryId}::uuid AND w.id = d.destination_id AND w.disabled_at IS NULL
      AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
    RETURNING d.attempts, d.notification, d.destination_id::text, w.url, w.format::text AS format, w.secret_version`;
  if (!claimed) return unclaimed(db, deliveryId);

  const attemptedAt = new Date();
  const prepared = prepare(deps, claimed, attemptedAt);
  const record =
    'request' in prepared
      ? recordOf(await postWebhook(prepared.url, prepared.request, { policy: deps.policy, timeoutMs }), new Date())
      : prepared;

  const attempt = claimed.attempts;
  const lastOfJob = jobAttempt ? jobAttempt.made + 1 >= jobAttempt.of : false;
  const retry = record.verdict === 'retry' && attempt < WEBHOOK_DELIVERY_MAX_ATTEMPTS && !lastOfJob;
  const delayMs = retry
    ? retryDelayMs(attempt, deps.schedule ?? DEFAULT_RETRY_SCHEDULE, record.retryAfterMs, deps.random)
    : null;
  const retryAt = delayMs === null ? null : new Date(Date.now() + delayMs);
  const outcome = record.verdict === 'delivered' ? 'delivered' : retry ? 'retrying' : 'failed';
  const status = outcome === 'retrying' ? 'pending' : outcome;

  // The log row and the delivery's new state in one statement: both or neither. The update holds
  // only while this attempt still owns the delivery (no later attempt claimed it past a lapsed lease).
  await db.$executeRaw`
    WITH logged AS (
      INSERT INTO webhook_delivery_attempts (id, delivery_id, destination_id, attempt, attempted_at, duration_ms,
                                             status_code, error_class, outcome, retry_at, response_snippet)
      VALUES (${randomUUID()}::uuid, ${deliveryId}::uuid, ${claimed.destination_id}::uuid, ${attempt}, ${attemptedAt},
              ${record.durationMs}, ${record.statusCode}, ${record.errorClass}, ${outcome}, ${retryAt}, ${record.snippet})
      ON CONFLICT (delivery_id, attempt) DO NOTHING
    )
    UPDATE webhook_deliveries
    SET status = ${status}::webhook_delivery_status, lease_until = NULL,
        next_attempt_at = COALESCE(${retryAt}::timestamptz, next_attempt_at),
        last_error = ${outcome === 'delivered' ? null : lastErrorOf(record)},
        completed_at = CASE WHEN ${status} = 'pending' THEN NULL ELSE now() END
    WHERE id = ${deliveryId}::uuid AND attempts = ${attempt} AND status = 'pending'`;

  if (outcome === 'delivered') return { applied: true };
  if (retryAt !== null && delayMs !== null) {
    throw new RetryLaterError(delayMs, `webhook delivery attempt ${attempt} failed (${lastErrorOf(record)}); retrying`);
  }
  return { applied: false, reason: 'gave_up' };
}
