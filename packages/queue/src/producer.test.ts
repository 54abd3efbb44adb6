import { randomUUID } from 'node:crypto';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, testEnv } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { CRAWL_BATCH_JOB_MAX_EVENTS, crawlBatchJob, crawlBatchJobs, leadJob } from './job-contracts.ts';
import { batchedEnqueue, createQueue, enqueueBulk } from './producer.ts';

// batchedEnqueue against the real Redis, on a prefix no worker of the run consumes.

const prefix = isolatedQueuePrefix();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const queue = createQueue(leadJob, redis, prefix);
const crawlQueue = createQueue(crawlBatchJob, redis, prefix);

afterAll(async () => {
  for (const q of [queue, crawlQueue]) {
    await q.obliterate({ force: true });
    await q.close();
  }
  await closeRedisConnection(redis);
});

const leadData = (n: number) => ({
  leadId: randomUUID(),
  propertyId: randomUUID(),
  eventId: `evt-${n}`,
  receivedAt: new Date().toISOString(),
  lead: { contact: `lead${n}@example.com` },
  platform: n % 2 ? 'chatgpt' : null,
});

/** How many times the connection writes to its socket while `work` runs (one per round trip sent). */
async function socketWritesDuring(work: () => Promise<unknown>): Promise<number> {
  await queue.waitUntilReady();
  const stream = redis.stream;
  const write = stream.write;
  let writes = 0;
  stream.write = function (this: typeof stream, ...args: Parameters<typeof write>) {
    writes++;
    return write.apply(this, args);
  } as typeof write;
  try {
    await work();
  } finally {
    stream.write = write;
  }
  return writes;
}

describe('batchedEnqueue', () => {
  it('adds every job handed over in one turn, with its id and the contract defaults', async () => {
    const enqueue = batchedEnqueue(queue, leadJob);
    const jobs = Array.from({ length: 20 }, (_, n) => leadData(n));
    await Promise.all(jobs.map((data) => enqueue(data, data.leadId)));
    for (const data of jobs) {
      const job = await queue.getJob(data.leadId);
      expect(job?.data).toEqual(data);
      expect(job?.name).toBe(leadJob.name);
      expect(job?.opts.attempts).toBe(leadJob.options.attempts);
    }
  });

  it('sends one turn’s jobs in one write; queue.add one by one would take one write each', async () => {
    const enqueue = batchedEnqueue(queue, leadJob);
    const batched = Array.from({ length: 10 }, (_, n) => leadData(100 + n));
    const batchedWrites = await socketWritesDuring(() => Promise.all(batched.map((d) => enqueue(d, d.leadId))));
    const single = Array.from({ length: 10 }, (_, n) => leadData(150 + n));
    const singleWrites = await socketWritesDuring(() =>
      Promise.all(single.map((d) => queue.add(leadJob.name, d, { jobId: d.leadId }))),
    );
    expect(batchedWrites).toBe(1);
    expect(singleWrites).toBe(10);
    for (const data of batched) expect(await queue.getJob(data.leadId)).toBeDefined();
  });

  it('a job handed over again under the same id stays one job', async () => {
    const enqueue = batchedEnqueue(queue, leadJob);
    const data = leadData(200);
    await Promise.all([enqueue(data, data.leadId), enqueue(data, data.leadId)]);
    await enqueue(data, data.leadId);
    const waiting = await queue.getJobs(['wait', 'waiting']);
    expect(waiting.filter((job) => job.id === data.leadId)).toHaveLength(1);
  });

  it('refuses a payload outside the contract without sending it, and without failing the rest of its turn', async () => {
    const enqueue = batchedEnqueue(queue, leadJob);
    const good = leadData(300);
    const bad = { ...leadData(301), leadId: 'not-a-uuid' };
    const [badResult, goodResult] = await Promise.allSettled([enqueue(bad, bad.eventId), enqueue(good, good.leadId)]);
    expect(badResult.status).toBe('rejected');
    expect(goodResult.status).toBe('fulfilled');
    expect(await queue.getJob(bad.eventId)).toBeUndefined();
    expect(await queue.getJob(good.leadId)).toBeDefined();
  });

  it('a turn with more than maxBatch jobs goes in several batches, every job in one of them', async () => {
    const enqueue = batchedEnqueue(queue, leadJob, 2);
    const jobs = Array.from({ length: 5 }, (_, n) => leadData(400 + n));
    const writes = await socketWritesDuring(() => Promise.all(jobs.map((d) => enqueue(d, d.leadId))));
    expect(writes).toBe(3);
    for (const data of jobs) expect(await queue.getJob(data.leadId)).toBeDefined();
  });

  it('a job BullMQ refuses fails only its own caller; the rest of its batch goes in', async () => {
    const enqueue = batchedEnqueue(queue, leadJob);
    const good = [leadData(600), leadData(601)];
    // BullMQ refuses a custom job id that is an integer, for the whole addBulk it is part of.
    const refused = leadData(602);
    const results = await Promise.allSettled([
      enqueue(good[0]!, good[0]!.leadId),
      enqueue(refused, '602'),
      enqueue(good[1]!, good[1]!.leadId),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (const data of good) expect(await queue.getJob(data.leadId)).toBeDefined();
    expect(await queue.getJob('602')).toBeUndefined();
  });

  it('when Redis cannot take the batch, every caller of that batch hears the error', async () => {
    const closed = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    const unreachable = createQueue(leadJob, closed, isolatedQueuePrefix());
    await unreachable.waitUntilReady();
    closed.disconnect();
    const enqueue = batchedEnqueue(unreachable, leadJob);
    const results = await Promise.allSettled([leadData(500), leadData(501)].map((d) => enqueue(d, d.leadId)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await unreachable.close().catch(() => {});
  });
});

const crawlEvent = (n: number) => ({
  occurredAt: '2026-03-02T10:00:00Z',
  host: 'acme.example',
  path: `/${n}`,
  userAgent: 'GPTBot/1.2',
  statusCode: 200,
  crawler: 'GPTBot',
  operator: 'OpenAI',
  verification: 'verified' as const,
});
const crawlBatch = () => ({ batchId: randomUUID(), propertyId: randomUUID(), receivedAt: new Date().toISOString() });

describe('crawlBatchJobs', () => {
  it('cuts a batch into ceil(n / max) chunks in order, each event in exactly one, named by the batch and index', () => {
    const batch = crawlBatch();
    for (const [events, sizes] of [
      [0, []],
      [1, [1]],
      [3, [3]],
      [7, [3, 3, 1]],
      [9, [3, 3, 3]],
    ] as const) {
      const all = Array.from({ length: events }, (_, n) => crawlEvent(n));
      const jobs = crawlBatchJobs(batch, all, 3);
      expect(jobs.map((j) => j.data.events.length)).toEqual(sizes);
      expect(jobs.flatMap((j) => j.data.events)).toEqual(all);
      expect(jobs.map((j) => [j.jobId, j.data.chunk])).toEqual(
        sizes.map((_, chunk) => [chunk === 0 ? batch.batchId : `${batch.batchId}-${chunk}`, chunk]),
      );
    }
  });

  it('cuts at CRAWL_BATCH_JOB_MAX_EVENTS by default', () => {
    const all = Array.from({ length: CRAWL_BATCH_JOB_MAX_EVENTS + 1 }, (_, n) => crawlEvent(n));
    const jobs = crawlBatchJobs(crawlBatch(), all);
    expect(jobs.map((j) => j.data.events.length)).toEqual([CRAWL_BATCH_JOB_MAX_EVENTS, 1]);
    expect(() => crawlBatchJobs(crawlBatch(), all, 0)).toThrow(RangeError);
  });
});

describe('enqueueBulk', () => {
  it('adds every job in one write, under its id; adding them again leaves one job per id', async () => {
    const jobs = crawlBatchJobs(crawlBatch(), [1, 2, 3, 4, 5].map(crawlEvent), 2);
    expect(await socketWritesDuring(() => enqueueBulk(crawlQueue, crawlBatchJob, jobs))).toBe(1);
    await enqueueBulk(crawlQueue, crawlBatchJob, jobs);
    const stored = await crawlQueue.getJobs(['wait', 'waiting']);
    for (const { jobId, data } of jobs) {
      expect(stored.filter((job) => job.id === jobId).map((job) => job.data)).toEqual([data]);
    }
  });

  it('a payload outside the contract sends none of the jobs', async () => {
    const [good, other] = crawlBatchJobs(crawlBatch(), [1, 2].map(crawlEvent), 1);
    const bad = { jobId: other!.jobId, data: { ...other!.data, propertyId: 'not-a-uuid' } };
    await expect(enqueueBulk(crawlQueue, crawlBatchJob, [good!, bad])).rejects.toThrow();
    expect(await crawlQueue.getJob(good!.jobId)).toBeUndefined();
  });
});
