import { randomUUID } from 'node:crypto';
import { CRAWL_BATCH_JOB_MAX_EVENTS, crawlBatchJob, crawlBatchJobs } from '@vt/queue';
import { describe, expect, it } from 'vitest';
import {
  aiReferral,
  batch,
  crawlerVisit,
  db,
  mixedEvents,
  newProperty,
  processedJob,
  run,
  snapshot,
} from './crawl-batch.fixtures.ts';
import { crawlBatchJobKey, writeCrawlBatch } from './crawl-batch.ts';
import { totalCrawlBatch } from './crawl-batch-totals.ts';

// Exactly-once effects: BullMQ delivers at least once (retries, stalled jobs, a producer that
// enqueues twice), so the processed-jobs row committed with the effects is what makes a batch count once.
const at = (second: number) => new Date(Date.UTC(2026, 2, 2) + second * 1000).toISOString();

describe('applyCrawlBatch: exactly-once effects', () => {
  it('a replayed job (same batch id) changes nothing, even when both copies run at once', async () => {
    const propertyId = await newProperty();
    const data = batch(propertyId, mixedEvents());
    const outcomes = await Promise.all([run(data), run(data)]);
    expect(outcomes).toEqual(expect.arrayContaining([{ applied: true }, { applied: false, reason: 'duplicate' }]));
    const once = await snapshot(propertyId);
    expect(await run(data)).toEqual({ applied: false, reason: 'duplicate' });
    expect(await snapshot(propertyId)).toEqual(once);
    expect(once.raw).toHaveLength(4);
    expect(once.crawlerDays.map((r) => r.hits)).toEqual([1, 1, 1]);
    expect(await processedJob(data)).toMatchObject({ queue: 'crawl-batch' });
  });

  it('a job failing half-way leaves nothing (no processed-jobs row either), so its retry applies it once', async () => {
    const propertyId = await newProperty();
    // An existing count at the int4 maximum makes the daily-count upsert fail after the raw
    // events are already inserted in the same transaction.
    await db.crawlerDailyCount.create({
      data: {
        propertyId,
        day: new Date('2026-03-01T00:00:00Z'),
        crawler: 'GPTBot',
        operator: 'OpenAI',
        verification: 'verified',
        hits: 2_147_483_647,
      },
    });
    const data = batch(propertyId, mixedEvents());
    await expect(run(data)).rejects.toThrow(/out of range/);
    const failed = await snapshot(propertyId);
    expect(failed.raw).toEqual([]);
    expect(failed.pages).toEqual([]);
    expect(failed.referralDays).toEqual([]);
    expect(failed.crawlerDays.map((r) => r.hits)).toEqual([2_147_483_647]);
    expect(await processedJob(data)).toBeNull();

    await db.crawlerDailyCount.updateMany({ where: { propertyId }, data: { hits: 10 } });
    expect(await run(data)).toEqual({ applied: true });
    expect(await run(data)).toEqual({ applied: false, reason: 'duplicate' });
    const retried = await snapshot(propertyId);
    expect(retried.raw).toHaveLength(4);
    expect(retried.crawlerDays.map((r) => [r.day, r.crawler, r.hits])).toEqual([
      ['2026-03-01', 'GPTBot', 11],
      ['2026-03-02', 'ClaudeBot', 1],
      ['2026-03-02', 'GPTBot', 1],
    ]);
    expect(retried.pages.map((r) => r.hits)).toEqual([1, 2]);
    expect(retried.referralDays.map((r) => r.visits)).toEqual([1]);
  });

  it('a worker killed after writing but before commit: the retry applies the batch exactly once', async () => {
    const propertyId = await newProperty();
    const data = batch(propertyId, mixedEvents());
    const killed = new Error('worker killed before commit');
    // Every statement of the job runs for real inside the transaction, then the "process dies".
    await expect(
      db.$transaction(async (tx) => {
        await expect(writeCrawlBatch(tx, data, totalCrawlBatch(data.events))).resolves.toEqual({
          applied: true,
        });
        throw killed;
      }),
    ).rejects.toBe(killed);
    expect(await snapshot(propertyId)).toEqual({ raw: [], crawlerDays: [], pages: [], referralDays: [] });
    expect(await processedJob(data)).toBeNull();

    expect(await run(data)).toEqual({ applied: true });
    expect(await run(data)).toEqual({ applied: false, reason: 'duplicate' });
    const { raw, crawlerDays, pages, referralDays } = await snapshot(propertyId);
    expect(raw).toHaveLength(4);
    expect(crawlerDays.map((r) => r.hits)).toEqual([1, 1, 1]);
    expect(pages.map((r) => r.hits)).toEqual([1, 2]);
    expect(referralDays.map((r) => r.visits)).toEqual([1]);
  });

  it('[CRAWL-31] the chunks of one batch each apply once: none passes for another, and a replay is a duplicate chunk by chunk', async () => {
    const propertyId = await newProperty();
    const events = [
      ...mixedEvents(),
      crawlerVisit('2026-03-02T10:00:00Z', '/docs'),
      aiReferral('2026-03-02T11:00:00Z', '/docs'),
    ];
    const { batchId, receivedAt } = batch(propertyId, []);
    const chunks = crawlBatchJobs({ batchId, propertyId, receivedAt }, events, 4).map((job) => job.data);
    expect(chunks.map((c) => [c.chunk, c.events.length])).toEqual([
      [0, 4],
      [1, 2],
    ]);
    // Both chunks and a duplicate of each, all at once: each chunk applies exactly once.
    const outcomes = await Promise.all([...chunks, ...chunks].map((chunk) => run(chunk)));
    expect(outcomes.filter((o) => o.applied)).toHaveLength(2);
    const once = await snapshot(propertyId);
    for (const chunk of chunks) expect(await run(chunk)).toEqual({ applied: false, reason: 'duplicate' });
    expect(await snapshot(propertyId)).toEqual(once);
    expect(await db.processedJob.count({ where: { jobKey: { startsWith: `crawl-batch:${batchId}` } } })).toBe(2);

    // The same events as one job, for another property: the same rows and counts, to the hit.
    const wholeProperty = await newProperty();
    expect(await run(batch(wholeProperty, events))).toEqual({ applied: true });
    type Snapshot = Awaited<ReturnType<typeof snapshot>>;
    const acrossProperties = (s: Snapshot) => ({
      ...s,
      raw: s.raw.map(({ propertyId: _, receivedAt: __, ...r }) => r),
    });
    expect(acrossProperties(once)).toEqual(acrossProperties(await snapshot(wholeProperty)));
    expect(once.raw).toHaveLength(6);
  });

  it('a job from before batches were chunked (no chunk field, any size) is chunk 0, under the key it always had', () => {
    const events = Array.from({ length: CRAWL_BATCH_JOB_MAX_EVENTS + 1 }, (_, i) => crawlerVisit(at(i), '/old'));
    const { chunk: _, ...unchunked } = batch(randomUUID(), events);
    const parsed = crawlBatchJob.schema.parse(unchunked);
    expect(parsed.events).toHaveLength(CRAWL_BATCH_JOB_MAX_EVENTS + 1);
    expect(parsed.chunk).toBe(0);
    expect(crawlBatchJobKey(parsed)).toBe(`crawl-batch:${unchunked.batchId}`);
    expect(crawlBatchJobKey({ ...parsed, chunk: 1 })).toBe(`crawl-batch:${unchunked.batchId}-1`);
  });
});
