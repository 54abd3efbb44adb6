import { randomUUID } from 'node:crypto';
import { crawlWorkerConfigSchema, parseConfig } from '@vt/config';
import { formatUtcDay } from '@vt/db';
import { createLogger } from '@vt/logger';
import { type CrawlBatchJobData, crawlBatchJob, createQueue } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlWorker } from './start.ts';

const db = testDb();
// Its own queue prefix: the crawl worker of another test file (apps-lifecycle) would otherwise
// take these jobs.
const prefix = isolatedQueuePrefix();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const queue = createQueue(crawlBatchJob, redis, prefix);
let worker: Awaited<ReturnType<typeof startCrawlWorker>> | undefined;

beforeAll(async () => {
  const config = parseConfig('crawl-worker', crawlWorkerConfigSchema, {
    ...testEnv,
    QUEUE_PREFIX: prefix,
    HOST: '127.0.0.1',
    CRAWL_WORKER_METRICS_PORT: '0',
  });
  worker = await startCrawlWorker(config, createLogger({ name: 'crawl-worker', level: 'silent' }));
  await queue.waitUntilReady();
});

afterAll(async () => {
  await worker?.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await closeRedisConnection(redis);
});

/** Polls until BullMQ reports the job completed (a failed job fails the test with its reason). */
async function completed(jobId: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.getJob(jobId);
    const state = await job?.getState();
    if (state === 'completed') return;
    if (state === 'failed') throw new Error(`job ${jobId} failed: ${job?.failedReason}`);
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('crawl worker through BullMQ', () => {
  it('[CRAWL-31] a batch enqueued twice under one batch id is applied once', async () => {
    const team = await db.team.create({ data: { name: 'Crawl e2e', slug: uniqueSlug('crawl-e2e') } });
    const { id: propertyId } = await db.property.create({
      data: { teamId: team.id, name: 'Acme', domain: 'acme.example', brandTerms: [], plan: 'starter' },
    });
    const data: CrawlBatchJobData = crawlBatchJob.schema.parse({
      batchId: randomUUID(),
      propertyId,
      receivedAt: new Date().toISOString(),
      events: [
        {
          occurredAt: '2026-03-02T10:00:00Z',
          host: 'acme.example',
          path: '/pricing',
          userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
          statusCode: 200,
          crawler: 'GPTBot',
          operator: 'OpenAI',
          verification: 'verified',
        },
        {
          occurredAt: '2026-03-02T11:00:00Z',
          host: 'acme.example',
          path: '/pricing',
          userAgent: 'Mozilla/5.0 Firefox/130.0',
          statusCode: 200,
          referer: 'https://chatgpt.com/',
          aiPlatform: 'chatgpt',
        },
      ],
    });
    // No jobId: BullMQ would deduplicate by id, and the point is that Postgres does it regardless.
    const first = await queue.add(crawlBatchJob.name, data);
    const second = await queue.add(crawlBatchJob.name, data);
    expect(first.id).not.toBe(second.id);
    await Promise.all([completed(String(first.id)), completed(String(second.id))]);

    const where = { propertyId };
    expect(await db.crawlEvent.count({ where })).toBe(2);
    const days = await db.crawlerDailyCount.findMany({ where });
    expect(days.map((r) => [formatUtcDay(r.day), r.crawler, r.operator, r.verification, r.hits])).toEqual([
      ['2026-03-02', 'GPTBot', 'OpenAI', 'verified', 1],
    ]);
    expect((await db.crawledPage.findMany({ where })).map((r) => [r.path, r.crawler, r.hits])).toEqual([
      ['/pricing', 'GPTBot', 1],
    ]);
    expect(
      (await db.aiReferralDailyCount.findMany({ where })).map((r) => [r.platform, r.landingPath, r.visits]),
    ).toEqual([['chatgpt', '/pricing', 1]]);
    expect(await db.processedJob.count({ where: { jobKey: `crawl-batch:${data.batchId}` } })).toBe(1);
  });
});
