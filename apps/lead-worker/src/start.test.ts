import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { leadWorkerConfigSchema, parseConfig } from '@vt/config';
import { createLogger } from '@vt/logger';
import { createQueue, leadJob } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, leadJobData, newProperty, snapshot } from './jobs/lead.fixtures.ts';
import { startLeadWorker } from './start.ts';

// Its own queue prefix: a lead worker of another test file would otherwise take these jobs.
const prefix = isolatedQueuePrefix();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const queue = createQueue(leadJob, redis, prefix);
const logLines: string[] = [];
let worker: Awaited<ReturnType<typeof startLeadWorker>> | undefined;

beforeAll(async () => {
  const config = parseConfig('lead-worker', leadWorkerConfigSchema, {
    ...testEnv,
    QUEUE_PREFIX: prefix,
    HOST: '127.0.0.1',
    LEAD_WORKER_METRICS_PORT: '0',
  });
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  worker = await startLeadWorker(config, createLogger({ name: 'lead-worker', level: 'debug', destination }));
  await queue.waitUntilReady();
});

afterAll(async () => {
  await worker?.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await closeRedisConnection(redis);
});

/** Polls until BullMQ reports the job completed (a failed job fails the test with its reason). */
async function completed(jobId: string | undefined, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.getJob(String(jobId));
    const state = await job?.getState();
    if (state === 'completed') return;
    if (state === 'failed') throw new Error(`job ${jobId} failed: ${job?.failedReason}`);
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('lead worker through BullMQ', () => {
  it('[LEAD-11] a lead enqueued twice under one lead id is stored once and counted once', async () => {
    const propertyId = await newProperty();
    const data = leadJobData(propertyId, { receivedAt: '2026-03-02T10:00:00Z' });
    // No jobId: BullMQ would deduplicate by id, and the point is that Postgres does it regardless.
    const first = await queue.add(leadJob.name, data);
    const second = await queue.add(leadJob.name, data);
    expect(first.id).not.toBe(second.id);
    await Promise.all([completed(first.id), completed(second.id)]);
    const { leads, counts } = await snapshot(propertyId);
    expect(leads.map((l) => l.id)).toEqual([data.leadId]);
    expect(counts).toEqual([{ day: '2026-03-02', platform: 'chatgpt', leads: 1 }]);
    expect(await db.processedJob.count({ where: { jobKey: `lead:${data.leadId}` } })).toBe(1);
  });

  it('[LEAD-8] two jobs carrying one x-webhook-id under different lead ids store one lead', async () => {
    const propertyId = await newProperty();
    const data = leadJobData(propertyId, { eventId: 'evt_twice', platform: null });
    const jobs = await Promise.all([
      queue.add(leadJob.name, data),
      queue.add(leadJob.name, { ...data, leadId: randomUUID() }),
    ]);
    await Promise.all(jobs.map((j) => completed(j.id)));
    const { leads, counts } = await snapshot(propertyId);
    expect(leads).toHaveLength(1);
    expect(counts).toEqual([]);
  });

  it('completes a job whose property was deleted meanwhile instead of retrying it', async () => {
    const job = await queue.add(leadJob.name, leadJobData(randomUUID()));
    await completed(job.id);
    expect((await queue.getJob(String(job.id)))?.attemptsMade).toBe(1); // one attempt, no retry
    const skipped = logLines.filter((line) => line.includes(`"jobId":"${job.id}"`));
    expect(skipped.join('')).toContain('"reason":"property_gone"');
  });

  it('logs ids only: never the contact, the email, the rest of the lead or the sender’s event id', async () => {
    const propertyId = await newProperty();
    const data = leadJobData(propertyId, {
      eventId: 'evt-grace@example.org',
      lead: { contact: 'Grace Hopper', email: 'grace@example.org', sessionId: 'sess-secret-77', utmSource: 'chatgpt' },
    });
    const job = await queue.add(leadJob.name, data);
    await completed(job.id);
    const text = logLines.join('');
    expect(text).toContain(data.leadId);
    for (const value of ['Grace Hopper', 'grace@example.org', 'sess-secret-77', 'evt-grace']) {
      expect(text).not.toContain(value);
    }
  });
});
