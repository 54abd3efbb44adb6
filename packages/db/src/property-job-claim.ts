import { Prisma } from './generated/prisma/client.ts';

/** Why a job that claims through `propertyJobClaim` changed nothing. */
export type UnclaimedReason = 'property_gone' | 'duplicate';

/** What the claim's `outcome` columns read back. */
export interface ClaimSteps {
  property: boolean;
  claimed: boolean;
}

/**
 * The opening of a job's one exactly-once statement, written once for every processor that
 * applies a job to a property:
 * - `ctes` defines `property`, the property read FOR KEY SHARE (what the foreign keys take
 *   anyway): taken first, it turns a property deleted since the job was queued into a clean no-op
 *   rather than a job retried until it fails; and `claim`, the job's processed-jobs row, inserted
 *   only for a live property, one row when this job claimed it. A concurrent twin waits on the
 *   other's uncommitted row at ON CONFLICT, then claims nothing.
 * - `outcome` selects `property` and `claimed` for `unclaimedReason`.
 * Every later step of the statement writes only `WHERE EXISTS (SELECT 1 FROM claim)` (or selects
 * `FROM claim`), so a replayed job, or one whose property is gone, writes nothing.
 */
export function propertyJobClaim(propertyId: string, job: { key: string; queue: string }) {
  return {
    ctes: Prisma.sql`property AS (
      SELECT id FROM properties WHERE id = ${propertyId}::uuid FOR KEY SHARE
    ), claim AS (
      INSERT INTO processed_jobs (job_key, queue)
      SELECT ${job.key}, ${job.queue} FROM property
      ON CONFLICT (job_key) DO NOTHING
      RETURNING 1
    )`,
    outcome: Prisma.sql`EXISTS (SELECT 1 FROM property) AS property, EXISTS (SELECT 1 FROM claim) AS claimed`,
  };
}

/** Why the statement changed nothing, or null when this job claimed its row and applied. */
export function unclaimedReason(steps: ClaimSteps | undefined): UnclaimedReason | null {
  if (!steps?.property) return 'property_gone';
  return steps.claimed ? null : 'duplicate';
}
