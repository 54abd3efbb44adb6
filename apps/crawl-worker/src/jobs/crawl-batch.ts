import {
  type ClaimSteps,
  type Prisma,
  type PrismaClient,
  propertyJobClaim,
  type UnclaimedReason,
  unclaimedReason,
} from '@vt/db';
import { type CrawlBatchJobData, crawlBatchChunkId, crawlBatchJob } from '@vt/queue';
import { type CrawlBatchTotals, totalCrawlBatch } from './crawl-batch-totals.ts';

export interface CrawlBatchDeps {
  db: PrismaClient;
}

export type CrawlBatchOutcome =
  | { applied: true }
  /** duplicate: this batch was already applied; property_gone: deleted since the gateway took the batch. */
  | { applied: false; reason: UnclaimedReason };

/**
 * The job's key in processed_jobs: its chunk's name (the batch id, which the gateway mints once
 * per accepted batch, and the chunk's index), so each chunk of a batch is applied once, and one
 * chunk never passes for another.
 */
export const crawlBatchJobKey = (data: Pick<CrawlBatchJobData, 'batchId' | 'chunk'>) =>
  `crawl-batch:${crawlBatchChunkId(data.batchId, data.chunk)}`;

/**
 * Applies one crawl-batch job (a whole batch, or one chunk of a large one) with exactly-once
 * effects: everything, the processed-jobs row included, is one statement (so one transaction), so
 * a retried or duplicated job finds the row and changes nothing, and a job that fails half-way
 * leaves nothing behind.
 */
export async function applyCrawlBatch(data: CrawlBatchJobData, deps: CrawlBatchDeps): Promise<CrawlBatchOutcome> {
  const totals = totalCrawlBatch(data.events); // before the statement: a bad payload holds no locks
  return writeCrawlBatch(deps.db, data, totals);
}

/**
 * The batch's one statement: data-modifying CTEs, each of which writes only once the job's
 * processed-jobs row is claimed. It used to be eight statements in an interactive transaction;
 * as one, a job costs one round trip to Postgres instead of ten, which measured about a third of
 * the worker's and the database's CPU per batch. Runs in the caller's transaction when given one.
 *
 * - It opens with the property's lock and the job's claim (`propertyJobClaim`): a property deleted
 *   since the gateway accepted the batch is a clean no-op, and a concurrent duplicate waits on the
 *   other job's processed-jobs row, then claims nothing.
 * - received_at is the gateway's receipt time (not ours), so a replay or a late retry lands in the
 *   day partition of its receipt and expires on schedule. Raw events are not pruned here: retention
 *   drops whole day partitions (`maintainCrawlEventPartitions`, the worker's scheduled task), and a
 *   day without a partition lands in the default one, so no batch fails for want of one.
 * - The totals are sorted by key, so concurrent jobs of one property lock shared rows in one order.
 */
export async function writeCrawlBatch(
  db: Prisma.TransactionClient,
  data: CrawlBatchJobData,
  totals: CrawlBatchTotals,
): Promise<CrawlBatchOutcome> {
  const { events, propertyId } = data;
  const column = <T>(pick: (e: (typeof events)[number]) => T) => events.map(pick);
  const { crawlerDays, pages, referralDays } = totals;
  const claim = propertyJobClaim(propertyId, { key: crawlBatchJobKey(data), queue: crawlBatchJob.queue });
  const [steps] = await db.$queryRaw<ClaimSteps[]>`
    WITH ${claim.ctes}, raw_events AS (
      INSERT INTO crawl_events (id, property_id, received_at, occurred_at, host, path, user_agent, status_code,
                                method, referer, crawler, operator, verification, ai_platform)
      SELECT gen_random_uuid(), ${propertyId}::uuid, ${data.receivedAt}::timestamptz, e.*
      FROM unnest(
        ${column((e) => e.occurredAt)}::timestamptz[], ${column((e) => e.host)}::text[],
        ${column((e) => e.path)}::text[], ${column((e) => e.userAgent)}::text[],
        ${column((e) => e.statusCode)}::int[], ${column((e) => e.method ?? null)}::text[],
        ${column((e) => e.referer ?? null)}::text[], ${column((e) => e.crawler ?? null)}::text[],
        ${column((e) => e.operator ?? null)}::text[], ${column((e) => e.verification ?? null)}::crawl_verification[],
        ${column((e) => e.aiPlatform ?? null)}::text[]
      ) AS e
      WHERE EXISTS (SELECT 1 FROM claim)
    ), crawler_days AS (
      INSERT INTO crawler_daily_counts (property_id, day, crawler, operator, verification, hits)
      SELECT ${propertyId}::uuid, t.*
      FROM unnest(
        ${crawlerDays.map((r) => r.day)}::date[], ${crawlerDays.map((r) => r.crawler)}::text[],
        ${crawlerDays.map((r) => r.operator)}::text[],
        ${crawlerDays.map((r) => r.verification)}::crawl_verification[], ${crawlerDays.map((r) => r.hits)}::int[]
      ) AS t
      WHERE EXISTS (SELECT 1 FROM claim)
      ON CONFLICT (property_id, day, crawler, operator, verification)
      DO UPDATE SET hits = crawler_daily_counts.hits + EXCLUDED.hits
    ), crawled AS (
      INSERT INTO crawled_pages (property_id, path, crawler, hits, first_seen_at, last_seen_at)
      SELECT ${propertyId}::uuid, t.*
      FROM unnest(
        ${pages.map((r) => r.path)}::text[], ${pages.map((r) => r.crawler)}::text[], ${pages.map((r) => r.hits)}::int[],
        ${pages.map((r) => r.firstSeenAt.toISOString())}::timestamptz[],
        ${pages.map((r) => r.lastSeenAt.toISOString())}::timestamptz[]
      ) AS t
      WHERE EXISTS (SELECT 1 FROM claim)
      ON CONFLICT (property_id, path, crawler) DO UPDATE SET
        hits = crawled_pages.hits + EXCLUDED.hits,
        first_seen_at = LEAST(crawled_pages.first_seen_at, EXCLUDED.first_seen_at),
        last_seen_at = GREATEST(crawled_pages.last_seen_at, EXCLUDED.last_seen_at)
    ), referral_days AS (
      INSERT INTO ai_referral_daily_counts (property_id, day, platform, landing_path, visits)
      SELECT ${propertyId}::uuid, t.*
      FROM unnest(
        ${referralDays.map((r) => r.day)}::date[], ${referralDays.map((r) => r.platform)}::text[],
        ${referralDays.map((r) => r.landingPath)}::text[], ${referralDays.map((r) => r.visits)}::int[]
      ) AS t
      WHERE EXISTS (SELECT 1 FROM claim)
      ON CONFLICT (property_id, day, platform, landing_path)
      DO UPDATE SET visits = ai_referral_daily_counts.visits + EXCLUDED.visits
    )
    SELECT ${claim.outcome}`;
  const unclaimed = unclaimedReason(steps);
  return unclaimed ? { applied: false, reason: unclaimed } : { applied: true };
}
