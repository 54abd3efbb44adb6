import { Prisma, type PrismaClient } from './generated/prisma/client.ts';
import { addUtcDays, formatUtcDay, utcDay } from './utc-day.ts';

// crawl_events is partitioned by receipt day (migration 20261126130000_crawl_events_partitioned):
// one partition per UTC day, named crawl_events_pYYYYMMDD, and a DEFAULT partition that takes a
// row whose day has none. Retention drops whole days; this module is the one place that does,
// for the crawl worker's scheduled maintenance and `ops db partitions`.

/** Days of partitions kept made ahead of today, so a missed maintenance run costs nothing. */
export const CRAWL_EVENT_PARTITION_DAYS_AHEAD = 7;

/**
 * How long maintenance waits for a lock before giving up until its next run. Attaching and
 * dropping a partition lock crawl_events briefly; waiting longer would queue the crawl worker's
 * inserts behind the maintenance.
 */
const LOCK_TIMEOUT = '2s';

/** Rows deleted at a time from the default partition, so no delete holds long locks. */
const DEFAULT_PRUNE_SLICE = 5000;

const PARTITION_NAME = /^crawl_events_p(\d{4})(\d{2})(\d{2})$/;

export interface CrawlEventPartitionMaintenance {
  /** Partitions made by this run, by name. */
  created: string[];
  /** Partitions dropped by this run: days wholly older than the retention. */
  dropped: string[];
  /** Rows past the retention deleted from the default partition. */
  expiredDefaultRows: number;
}

export interface CrawlEventPartitionOptions {
  /** Raw events received longer ago than this go; a day goes once its last instant has. */
  retentionMs: number;
  daysAhead?: number;
  now?: Date;
}

/** The day partitions that exist, oldest first, with the UTC day each holds. */
export async function listCrawlEventPartitions(db: PrismaClient): Promise<{ name: string; day: string }[]> {
  const rows = await db.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'crawl_events'::regclass ORDER BY c.relname`;
  return rows.flatMap(({ name }) => {
    const match = PARTITION_NAME.exec(name);
    return match ? [{ name, day: `${match[1]}-${match[2]}-${match[3]}` }] : [];
  });
}

/** Makes the partition of one UTC day if it is missing (moving that day's rows out of the default). */
export async function createCrawlEventPartition(db: PrismaClient, day: string): Promise<boolean> {
  const [, rows] = await db.$transaction([
    db.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`),
    db.$queryRaw<{ created: boolean }[]>`SELECT crawl_events_create_partition(${day}::date) AS created`,
  ]);
  return rows[0]?.created ?? false;
}

/**
 * Makes today's partition and those of the days ahead, drops the partitions of days wholly older
 * than the retention, and deletes expired rows from the default partition (normally none: only a
 * batch received on a day without a partition lands there). Idempotent, and safe on every replica
 * at once: partitions are made and dropped under one advisory lock, and a partition already dropped
 * is skipped.
 * A lock not granted within LOCK_TIMEOUT fails the run; the next run does the rest.
 */
export async function maintainCrawlEventPartitions(
  db: PrismaClient,
  options: CrawlEventPartitionOptions,
): Promise<CrawlEventPartitionMaintenance> {
  const now = options.now ?? new Date();
  const today = utcDay(now);
  const created: string[] = [];
  for (let i = 0; i <= (options.daysAhead ?? CRAWL_EVENT_PARTITION_DAYS_AHEAD); i++) {
    const day = formatUtcDay(addUtcDays(today, i));
    if (await createCrawlEventPartition(db, day)) created.push(partitionName(day));
  }

  const cutoff = new Date(now.getTime() - options.retentionMs);
  const dropped: string[] = [];
  for (const partition of await listCrawlEventPartitions(db)) {
    const dayEnd = addUtcDays(new Date(`${partition.day}T00:00:00Z`), 1); // the name's digits: a valid day
    if (dayEnd.getTime() > cutoff.getTime()) continue;
    await db.$transaction([
      db.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`),
      // The lock crawl_events_create_partition takes: every change to the partitions takes turns.
      // Two replicas dropping one partition, or one dropping while another attaches, otherwise
      // meet in the catalogue ("could not find tuple for parent of relation").
      db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('crawl_events_partitions'))`,
      // The name comes from the catalogue and matched PARTITION_NAME: digits only, safe to splice.
      db.$executeRaw`DROP TABLE IF EXISTS ${Prisma.raw(`"${partition.name}"`)}`,
    ]);
    dropped.push(partition.name);
  }

  let expiredDefaultRows = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM crawl_events_default WHERE ctid IN (
        SELECT ctid FROM crawl_events_default WHERE received_at < ${cutoff} LIMIT ${DEFAULT_PRUNE_SLICE})`;
    expiredDefaultRows += deleted;
    if (deleted < DEFAULT_PRUNE_SLICE) break;
  }
  return { created, dropped, expiredDefaultRows };
}

export const partitionName = (day: string) => `crawl_events_p${day.replaceAll('-', '')}`;

const HOUR_MS = 3_600_000;

/**
 * The crawl worker's scheduled maintenance: hourly, so today's partition and the week ahead always
 * exist well before a batch needs them, and a day is dropped within the hour it expires.
 */
export function crawlEventPartitionsTask(
  db: PrismaClient,
  retentionMs: number,
): { name: string; everyMs: number; run: () => Promise<CrawlEventPartitionMaintenance> } {
  return {
    name: 'crawl event partitions',
    everyMs: HOUR_MS,
    run: () => maintainCrawlEventPartitions(db, { retentionMs }),
  };
}
