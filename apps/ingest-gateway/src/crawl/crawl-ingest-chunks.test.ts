import { randomUUID } from 'node:crypto';
import { type CrawlBatchJobData, crawlBatchChunkId } from '@vt/queue';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../testing/gateway-harness.ts';
import { namedBatchId, namedBatchKey } from './named-batches.ts';

// A batch that keeps more events than one job holds is enqueued as several jobs, its chunks. Three
// events a job here, so a few lines make several chunks (the deployment's size: 5,000).

const EVENTS_PER_JOB = 3;
const h = await createGatewayHarness({ crawl: { maxEventsPerJob: EVENTS_PER_JOB } });
afterAll(() => h.close());

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';
const HUMAN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/130.0';

/** `kept` GPTBot visits (paths /0, /1, …) with a human visit after every third. */
function body(kept: number): string {
  const lines: string[] = [];
  for (let i = 0; i < kept; i++) {
    const visit = { timestamp: '2025-03-01T12:00:00Z', host: 'example.com', path: `/${i}`, statusCode: 200 };
    lines.push(JSON.stringify({ ...visit, userAgent: GPTBOT }));
    if (i % 3 === 2) lines.push(JSON.stringify({ ...visit, userAgent: HUMAN }));
  }
  return `${lines.join('\n')}\n`;
}

function post(property: { id: string }, token: string, text: string, idempotencyKey?: string) {
  const req = request(h.app)
    .post(`/api/ingest/crawl/${property.id}`)
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', 'application/x-ndjson');
  if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey);
  return req.send(text);
}

/** The property's jobs as BullMQ holds them, in chunk order. */
async function chunksOf(propertyId: string) {
  const jobs = await h.queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
  return jobs
    .map((job) => ({ id: job.id, ...(job.data as CrawlBatchJobData) }))
    .filter((job) => job.propertyId === propertyId)
    .sort((a, b) => a.chunk - b.chunk);
}

describe('POST /api/ingest/crawl/:propertyId: batches larger than one job', () => {
  it('[CRAWL-16] 10 kept events go out as 4 jobs of at most 3, every event once and in order; the answer is unchanged', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(property, token, body(10));
    expect(res.status).toBe(202);
    expect(res.body).toStrictEqual({ kept: 10, received: 13 });

    const chunks = await chunksOf(property.id);
    expect(chunks.map((c) => c.events.length)).toEqual([3, 3, 3, 1]);
    const [{ batchId, receivedAt }] = chunks as [(typeof chunks)[number]];
    expect(chunks.map((c) => [c.id, c.chunk, c.batchId, c.receivedAt])).toEqual(
      [0, 1, 2, 3].map((chunk) => [crawlBatchChunkId(batchId, chunk), chunk, batchId, receivedAt]),
    );
    expect(chunks.flatMap((c) => c.events.map((e) => e.path))).toEqual(Array.from({ length: 10 }, (_, i) => `/${i}`));
  });

  it('[CRAWL-16] a batch of exactly one job’s events is one job, under the batch’s own id', async () => {
    const { property, token } = await h.createProperty();
    const key = randomUUID();
    expect((await post(property, token, body(EVENTS_PER_JOB), key)).status).toBe(202);
    const chunks = await chunksOf(property.id);
    expect(chunks.map((c) => [c.id, c.chunk, c.events.length])).toEqual([[namedBatchId(property.id, key), 0, 3]]);
  });

  it('[CRAWL-17] a named batch’s chunks are named by its key: a repeat adds none, nor does a retry after a crash before the answer', async () => {
    const { property, token } = await h.createProperty();
    const key = randomUUID();
    const batchId = namedBatchId(property.id, key);
    expect((await post(property, token, body(7), key)).body).toStrictEqual({ kept: 7, received: 9 });
    const first = await chunksOf(property.id);
    expect(first.map((c) => c.id)).toEqual([0, 1, 2].map((chunk) => crawlBatchChunkId(batchId, chunk)));

    const repeat = await post(property, token, body(7), key);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toStrictEqual({ duplicate: true, kept: 7, received: 9 });
    expect(await chunksOf(property.id)).toEqual(first);

    // A gateway that died after enqueueing leaves no settled claim (its pending one lapses): the
    // retry is a first attempt again, and enqueues the same chunk ids, which BullMQ takes once.
    await h.redis.del(namedBatchKey(h.keyPrefix, property.id, key));
    const retry = await post(property, token, body(7), key);
    expect(retry.status).toBe(202);
    expect(retry.body).toStrictEqual({ kept: 7, received: 9 });
    expect(await chunksOf(property.id)).toEqual(first);
  });
});
