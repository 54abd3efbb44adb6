import {
  type ClaimSteps,
  formatUtcDay,
  type Prisma,
  type PrismaClient,
  propertyJobClaim,
  type UnclaimedReason,
  unclaimedReason,
} from '@vt/db';
import { type LeadJobData, leadJob } from '@vt/queue';

export type LeadOutcome =
  | { applied: true }
  /**
   * duplicate: this job (lead id) was already applied; duplicate_event: another job already stored
   * a lead under the same x-webhook-id; property_gone: deleted since the gateway took the lead.
   */
  | { applied: false; reason: UnclaimedReason | 'duplicate_event' };

/** The job's key in processed_jobs: the lead id, which the gateway derives from (property, event id). */
export const leadJobKey = (leadId: string) => `lead:${leadId}`;

/**
 * Stores one lead with exactly-once effects. The processed-jobs row, the lead and its daily count
 * are one statement, so one transaction: a retried or duplicated job changes nothing, a job that
 * fails half-way leaves nothing, and two jobs carrying the same x-webhook-id store one lead.
 * One statement rather than an interactive transaction: one round trip instead of six (about twice
 * the leads per second on one connection) and no interactive-transaction timeouts under load.
 * Runs on a client or inside a transaction the caller owns; each step runs only on what the
 * previous one returned.
 * - It opens with the property's lock and the job's claim (`propertyJobClaim`): a property deleted
 *   since the gateway accepted the lead is a clean no-op, not a retried job.
 * - A concurrent twin (same job, or same x-webhook-id) waits on the other's uncommitted row at
 *   ON CONFLICT, then does nothing. The lead insert has no conflict target: (property_id,
 *   event_id) is the rule, and the same lead id can only mean the same event.
 */
export async function applyLead(db: PrismaClient | Prisma.TransactionClient, data: LeadJobData): Promise<LeadOutcome> {
  const { leadId, propertyId, eventId, lead, platform } = data;
  // The lead's day is the UTC day the gateway received it, whatever offset receivedAt carries.
  const day = formatUtcDay(new Date(data.receivedAt));
  const claim = propertyJobClaim(propertyId, { key: leadJobKey(leadId), queue: leadJob.queue });
  const [steps] = await db.$queryRaw<(ClaimSteps & { inserted: boolean })[]>`
    WITH ${claim.ctes}, inserted AS (
      INSERT INTO leads (id, property_id, event_id, contact, email, session_id, landing_path, referrer,
                         utm_source, utm_medium, matched, platform, received_at, day)
      SELECT ${leadId}::uuid, ${propertyId}::uuid, ${eventId}, ${lead.contact}, ${lead.email ?? null},
             ${lead.sessionId ?? null}, ${lead.landingPath ?? null}, ${lead.referrer ?? null},
             ${lead.utmSource ?? null}, ${lead.utmMedium ?? null}, ${platform !== null}, ${platform},
             ${data.receivedAt}::timestamptz, ${day}::date
      FROM claim
      ON CONFLICT DO NOTHING
      RETURNING platform
    ), counted AS (
      INSERT INTO ai_lead_daily_counts (property_id, day, platform, leads)
      SELECT ${propertyId}::uuid, ${day}::date, platform, 1 FROM inserted WHERE platform IS NOT NULL
      ON CONFLICT (property_id, day, platform) DO UPDATE SET leads = ai_lead_daily_counts.leads + 1
    )
    SELECT ${claim.outcome}, EXISTS (SELECT 1 FROM inserted) AS inserted`;
  const unclaimed = unclaimedReason(steps);
  if (unclaimed) return { applied: false, reason: unclaimed };
  if (!steps?.inserted) return { applied: false, reason: 'duplicate_event' };
  return { applied: true };
}
