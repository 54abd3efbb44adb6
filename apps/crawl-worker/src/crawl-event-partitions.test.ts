import { crawlWorkerConfigSchema, parseConfig } from '@vt/config';
import {
  createCrawlEventPartition,
  listCrawlEventPartitions,
  maintainCrawlEventPartitions,
  type PrismaClient,
  partitionName,
} from '@vt/db';
import { createLogger } from '@vt/logger';
import { isolatedQueuePrefix, scratchDatabase, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiReferral, batch, crawlerVisit, mixedEvents } from './jobs/crawl-batch.fixtures.ts';
import { applyCrawlBatch } from './jobs/crawl-batch.ts';
import { startCrawlWorker } from './start.ts';

// Retention drops whole days of every property, so these tests run on a database of their own:
// on the run's shared one they would drop other files' rows.
const HOUR = 3_600_000;
const RETENTION_MS = 72 * HOUR;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: PrismaClient;

beforeAll(async () => {
  scratch = await scratchDatabase('crawl_partitions');
  db = scratch.db;
});
afterAll(() => scratch?.drop());

async function newProperty(): Promise<string> {
  const team = await db.team.create({ data: { name: 'Partitions', slug: `partitions-${crypto.randomUUID()}` } });
  const property = await db.property.create({
    data: { teamId: team.id, name: 'Acme', domain: 'acme.example', brandTerms: [], plan: 'starter' },
  });
  return property.id;
}

/** Each raw event of a property with the partition that holds it. */
const rawWithPartition = (propertyId: string) =>
  db.$queryRaw<{ path: string; partition: string }[]>`
    SELECT path, tableoid::regclass::text AS partition FROM crawl_events
    WHERE property_id = ${propertyId}::uuid ORDER BY occurred_at, path`;

const crawlerHits = async (propertyId: string) =>
  (await db.crawlerDailyCount.findMany({ where: { propertyId } })).reduce((sum, r) => sum + r.hits, 0);

describe('crawl_events partitions by receipt day', () => {
  it('[CRAWL-15] drops a day of raw events once all of it is past the retention, for every property, keeping the counts built from it', async () => {
    const a = await newProperty();
    const b = await newProperty();
    const t0 = new Date('2026-03-02T12:00:00Z');
    const made = await maintainCrawlEventPartitions(db, { retentionMs: RETENTION_MS, now: t0 });
    expect(made.created).toEqual(
      ['02', '03', '04', '05', '06', '07', '08', '09'].map((d) => partitionName(`2026-03-${d}`)),
    );
    await applyCrawlBatch(batch(a, mixedEvents(), t0), { db });
    await applyCrawlBatch(batch(b, mixedEvents(), t0), { db });
    const later = new Date('2026-03-05T11:00:00Z');
    await applyCrawlBatch(batch(a, [aiReferral('2026-03-05T10:00:00Z', '/new')], later), { db });
    expect((await rawWithPartition(a)).map((r) => r.partition)).toEqual([
      ...Array(4).fill('crawl_events_p20260302'),
      'crawl_events_p20260305',
    ]);

    // The last instant of the 2nd is not yet past the retention: the whole day stays.
    const edge = new Date('2026-03-05T23:59:59.999Z');
    expect((await maintainCrawlEventPartitions(db, { retentionMs: RETENTION_MS, now: edge })).dropped).toEqual([]);
    expect(await rawWithPartition(a)).toHaveLength(5);

    const next = new Date('2026-03-06T00:00:00Z');
    const outcome = await maintainCrawlEventPartitions(db, { retentionMs: RETENTION_MS, now: next });
    expect(outcome.dropped).toEqual(['crawl_events_p20260302']);
    expect((await rawWithPartition(a)).map((r) => r.path)).toEqual(['/new']);
    expect(await rawWithPartition(b)).toEqual([]);
    // What the dropped rows counted stays.
    expect(await crawlerHits(a)).toBe(3);
    expect(await crawlerHits(b)).toBe(3);
    expect((await listCrawlEventPartitions(db)).map((p) => p.day)).not.toContain('2026-03-02');
  });

  it('a batch received on a day without a partition lands in the default one and moves when the day gets its partition', async () => {
    const propertyId = await newProperty();
    const receivedAt = new Date('2027-06-01T08:00:00Z'); // beyond every partition made ahead
    const data = batch(
      propertyId,
      [crawlerVisit('2027-06-01T07:59:00Z', '/a'), aiReferral('2027-06-01T07:59:30Z', '/b')],
      receivedAt,
    );
    expect(await applyCrawlBatch(data, { db })).toEqual({ applied: true });
    expect((await rawWithPartition(propertyId)).map((r) => r.partition)).toEqual([
      'crawl_events_default',
      'crawl_events_default',
    ]);

    expect(await createCrawlEventPartition(db, '2027-06-01')).toBe(true);
    expect(await createCrawlEventPartition(db, '2027-06-01')).toBe(false);
    expect(await rawWithPartition(propertyId)).toEqual([
      { path: '/a', partition: 'crawl_events_p20270601' },
      { path: '/b', partition: 'crawl_events_p20270601' },
    ]);
    // The job delivered again still finds its marker: the move changed nothing it relies on.
    expect(await applyCrawlBatch(data, { db })).toEqual({ applied: false, reason: 'duplicate' });
    expect(await rawWithPartition(propertyId)).toHaveLength(2);
  });

  it('expired rows in the default partition are deleted by the same maintenance', async () => {
    const propertyId = await newProperty();
    const receivedAt = new Date('2025-01-01T00:00:00Z'); // a replay of a very old job: no partition
    await applyCrawlBatch(batch(propertyId, [crawlerVisit('2025-01-01T00:00:00Z', '/old')], receivedAt), { db });
    expect((await rawWithPartition(propertyId)).map((r) => r.partition)).toEqual(['crawl_events_default']);
    const outcome = await maintainCrawlEventPartitions(db, { retentionMs: RETENTION_MS });
    expect(outcome.expiredDefaultRows).toBeGreaterThanOrEqual(1);
    expect(await rawWithPartition(propertyId)).toEqual([]);
    expect(await crawlerHits(propertyId)).toBe(1);
  });

  it('replicas maintaining at once make each partition once and fail nothing', async () => {
    const now = new Date('2028-02-27T05:00:00Z');
    const runs = await Promise.all(
      [1, 2, 3].map(() => maintainCrawlEventPartitions(db, { retentionMs: RETENTION_MS, now })),
    );
    const created = runs.flatMap((r) => r.created).sort();
    expect(created).toEqual(
      [
        '2028-02-27',
        '2028-02-28',
        '2028-02-29',
        '2028-03-01',
        '2028-03-02',
        '2028-03-03',
        '2028-03-04',
        '2028-03-05',
      ].map(partitionName),
    );
  });

  it('the crawl worker makes the partitions ahead when it starts and drops expired ones', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const weekAhead = new Date(Date.now() + 7 * 24 * HOUR).toISOString().slice(0, 10);
    await createCrawlEventPartition(db, '2026-01-15');
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${partitionName(weekAhead)}"`);
    const config = parseConfig('crawl-worker', crawlWorkerConfigSchema, {
      ...testEnv,
      DATABASE_URL: scratch.url,
      QUEUE_PREFIX: isolatedQueuePrefix(),
      HOST: '127.0.0.1',
      CRAWL_WORKER_METRICS_PORT: '0',
    });
    const worker = await startCrawlWorker(config, createLogger({ name: 'crawl-worker', level: 'silent' }));
    try {
      const deadline = Date.now() + 10_000;
      let days: string[] = [];
      while (Date.now() < deadline) {
        days = (await listCrawlEventPartitions(db)).map((p) => p.day);
        if (days.includes(weekAhead) && !days.includes('2026-01-15')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(days).toContain(today);
      expect(days).toContain(weekAhead);
      expect(days).not.toContain('2026-01-15');
    } finally {
      await worker.close();
    }
  });
});
