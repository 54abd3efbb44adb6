import type { Prisma, PrismaClient } from '@vt/db';
import { type CrawlBatchJobData, crawlBatchJob } from '@vt/queue';
import { type CrawlBatchTotals, totalCrawlBatch } from './crawl-batch-totals.ts';

export interface CrawlBatchDeps {
  db: PrismaClient;
  /** Raw events received longer ago than this are pruned; the daily counts built from them stay. */
  rawEventRetentionMs: number;
  now?: () => Date;
}

export type CrawlBatchOutcome =
  | { applied: true }
  /** duplicate: this batch was already applied; property_gone: deleted since the gateway took the batch. */
  | { applied: false; reason: 'duplicate' | 'property_gone' };

/**
 * A prune deletes at least this many old raw events, and at least twice what the batch adds, so
 * pruning keeps pace with intake while the work per job stays bounded.
 */
const PRUNE_MIN_ROWS = 5000;

// A 10,000-event batch is a handful of statements, but Prisma's 5 s default for an interactive
// transaction is too tight on a busy database; the statement timeout still bounds each statement.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 60_000 } as const;

/** The job's key in processed_jobs: the batch id, which the gateway mints once per accepted batch. */
export const crawlBatchJobKey = (batchId: string) => `crawl-batch:${batchId}`;

/**
 * Applies one crawl batch with exactly-once effects: everything, the processed-jobs row included,
 * commits in one transaction, so a retried or duplicated job finds the row and changes nothing,
 * and a job that fails half-way leaves nothing behind.
 */
export async function applyCrawlBatch(data: CrawlBatchJobData, deps: CrawlBatchDeps): Promise<CrawlBatchOutcome> {
  const totals = totalCrawlBatch(data.events); // before the transaction: a bad payload holds no locks
  const pruneBefore = new Date((deps.now?.() ?? new Date()).getTime() - deps.rawEventRetentionMs);
  return deps.db.$transaction((tx) => writeCrawlBatch(tx, data, totals, pruneBefore), TRANSACTION_OPTIONS);
}

/** The statements of one batch, inside a transaction the caller owns. */
export async function writeCrawlBatch(
  tx: Prisma.TransactionClient,
  data: CrawlBatchJobData,
  totals: CrawlBatchTotals,
  pruneBefore: Date,
): Promise<CrawlBatchOutcome> {
  // KEY SHARE is what the foreign keys would take anyway; taking it first turns a property deleted
  // since the gateway accepted the batch into a clean no-op instead of a job retried until it fails.
  const property = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM properties WHERE id = ${data.propertyId}::uuid FOR KEY SHARE`;
  if (property.length === 0) return { applied: false, reason: 'property_gone' };

  // A concurrent duplicate waits here on the other transaction's row, then sees the conflict.
  const claimed = await tx.$executeRaw`
    INSERT INTO processed_jobs (job_key, queue) VALUES (${crawlBatchJobKey(data.batchId)}, ${crawlBatchJob.queue})
    ON CONFLICT (job_key) DO NOTHING`;
  if (claimed === 0) return { applied: false, reason: 'duplicate' };

  await insertRawEvents(tx, data);
  await addCrawlerDays(tx, data.propertyId, totals);
  await upsertPages(tx, data.propertyId, totals);
  await addReferralDays(tx, data.propertyId, totals);
  await pruneRawEvents(tx, data.propertyId, pruneBefore, Math.max(PRUNE_MIN_ROWS, 2 * data.events.length));
  return { applied: true };
}

async function insertRawEvents(tx: Prisma.TransactionClient, data: CrawlBatchJobData): Promise<void> {
  const { events } = data;
  if (events.length === 0) return;
  const column = <T>(pick: (e: (typeof events)[number]) => T) => events.map(pick);
  // received_at is the gateway's receipt time (not ours), so a replay or a late retry prunes on schedule.
  await tx.$executeRaw`
    INSERT INTO crawl_events (id, property_id, received_at, occurred_at, host, path, user_agent, status_code,
                              method, referer, crawler, operator, verification, ai_platform)
    SELECT gen_random_uuid(), ${data.propertyId}::uuid, ${data.receivedAt}::timestamptz, e.*
    FROM unnest(
      ${column((e) => e.occurredAt)}::timestamptz[], ${column((e) => e.host)}::text[],
      ${column((e) => e.path)}::text[], ${column((e) => e.userAgent)}::text[],
      ${column((e) => e.statusCode)}::int[], ${column((e) => e.method ?? null)}::text[],
      ${column((e) => e.referer ?? null)}::text[], ${column((e) => e.crawler ?? null)}::text[],
      ${column((e) => e.operator ?? null)}::text[], ${column((e) => e.verification ?? null)}::crawl_verification[],
      ${column((e) => e.aiPlatform ?? null)}::text[]
    ) AS e`;
}

async function addCrawlerDays(
  tx: Prisma.TransactionClient,
  propertyId: string,
  { crawlerDays: rows }: CrawlBatchTotals,
) {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO crawler_daily_counts (property_id, day, crawler, operator, verification, hits)
    SELECT ${propertyId}::uuid, t.*
    FROM unnest(
      ${rows.map((r) => r.day)}::date[], ${rows.map((r) => r.crawler)}::text[], ${rows.map((r) => r.operator)}::text[],
      ${rows.map((r) => r.verification)}::crawl_verification[], ${rows.map((r) => r.hits)}::int[]
    ) AS t
    ON CONFLICT (property_id, day, crawler, operator, verification)
    DO UPDATE SET hits = crawler_daily_counts.hits + EXCLUDED.hits`;
}

async function upsertPages(tx: Prisma.TransactionClient, propertyId: string, { pages: rows }: CrawlBatchTotals) {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO crawled_pages (property_id, path, crawler, hits, first_seen_at, last_seen_at)
    SELECT ${propertyId}::uuid, t.*
    FROM unnest(
      ${rows.map((r) => r.path)}::text[], ${rows.map((r) => r.crawler)}::text[], ${rows.map((r) => r.hits)}::int[],
      ${rows.map((r) => r.firstSeenAt.toISOString())}::timestamptz[],
      ${rows.map((r) => r.lastSeenAt.toISOString())}::timestamptz[]
    ) AS t
    ON CONFLICT (property_id, path, crawler) DO UPDATE SET
      hits = crawled_pages.hits + EXCLUDED.hits,
      first_seen_at = LEAST(crawled_pages.first_seen_at, EXCLUDED.first_seen_at),
      last_seen_at = GREATEST(crawled_pages.last_seen_at, EXCLUDED.last_seen_at)`;
}

async function addReferralDays(
  tx: Prisma.TransactionClient,
  propertyId: string,
  { referralDays: rows }: CrawlBatchTotals,
) {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO ai_referral_daily_counts (property_id, day, platform, landing_path, visits)
    SELECT ${propertyId}::uuid, t.*
    FROM unnest(
      ${rows.map((r) => r.day)}::date[], ${rows.map((r) => r.platform)}::text[],
      ${rows.map((r) => r.landingPath)}::text[], ${rows.map((r) => r.visits)}::int[]
    ) AS t
    ON CONFLICT (property_id, day, platform, landing_path) DO UPDATE SET visits = ai_referral_daily_counts.visits + EXCLUDED.visits`;
}

/**
 * "Raw events are kept for a short window and pruned as new ones arrive": each batch prunes its
 * own property's expired events, a bounded number at a time. SKIP LOCKED lets two concurrent
 * jobs of one property prune side by side instead of waiting on (or deadlocking over) each other.
 */
async function pruneRawEvents(tx: Prisma.TransactionClient, propertyId: string, before: Date, limit: number) {
  await tx.$executeRaw`
    DELETE FROM crawl_events WHERE id IN (
      SELECT id FROM crawl_events
      WHERE property_id = ${propertyId}::uuid AND received_at < ${before.toISOString()}::timestamptz
      LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
}
