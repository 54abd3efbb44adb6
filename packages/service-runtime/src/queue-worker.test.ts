import { Writable } from 'node:stream';
import { createLogger } from '@vt/logger';
import { createQueue, type JobContract } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, promtool, sampleSum, scrape, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type JobOutcome, jobWorker } from './job-worker.ts';
import { startQueueWorker } from './queue-worker.ts';

// The worker shell over the real Redis, BullMQ and Postgres, with a contract of its own on a
// prefix of its own: what it does with a job's outcome, a failing job, and its health server.

const thingJob = {
  queue: 'things',
  name: 'thing',
  schema: z.strictObject({ id: z.string(), secret: z.string(), outcome: z.enum(['apply', 'skip', 'fail', 'flaky']) }),
  options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
} satisfies JobContract;

const prefix = isolatedQueuePrefix();
const producer = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const queue = createQueue(thingJob, producer, prefix);
const lines: Record<string, unknown>[] = [];
const handled: string[] = [];
/** Ids of 'flaky' jobs that failed once already: their next attempt succeeds. */
const failedOnce = new Set<string>();
let worker: Awaited<ReturnType<typeof startQueueWorker>>;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  worker = await startQueueWorker({
    name: 'test-worker',
    config: { ...testEnv, QUEUE_PREFIX: prefix, HOST: '127.0.0.1', ...poolConfig },
    port: 0,
    logger: createLogger({ name: 'test-worker', level: 'debug', destination }),
    workers: ({ db }) => [
      jobWorker({
        contract: thingJob,
        concurrency: 2,
        handle: async (data): Promise<JobOutcome> => {
          await db.$queryRaw`SELECT 1`; // the shell hands over a working Prisma client
          handled.push(data.id);
          if (data.outcome === 'fail') throw new Error('boom');
          if (data.outcome === 'flaky' && !failedOnce.has(data.id)) {
            failedOnce.add(data.id);
            throw new Error('not this time');
          }
          return data.outcome === 'skip' ? { applied: false, reason: 'duplicate' } : { applied: true };
        },
        jobFields: (data) => ({ thingId: data.id }),
        claimsProcessedJobs: true,
      }),
    ],
  });
});

afterAll(async () => {
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await closeRedisConnection(producer);
});

const poolConfig = {
  DATABASE_POOL_MAX: 2,
  DATABASE_CONNECT_TIMEOUT_MS: 5000,
  DATABASE_IDLE_TIMEOUT_MS: 10_000,
  DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
};

async function logLine(message: string, thingId: string): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const line = lines.find((l) => l.msg === message && l.thingId === thingId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no "${message}" line for ${thingId}`);
}

describe('startQueueWorker', () => {
  it('handles each job’s parsed payload and logs its outcome with the fields it names', async () => {
    await queue.add(thingJob.name, { id: 't-apply', secret: 's3cret-a', outcome: 'apply' });
    await queue.add(thingJob.name, { id: 't-skip', secret: 's3cret-b', outcome: 'skip' });
    expect(await logLine('thing job applied', 't-apply')).toMatchObject({ level: 'debug', jobId: expect.any(String) });
    expect(await logLine('thing job skipped', 't-skip')).toMatchObject({ level: 'info', reason: 'duplicate' });
    expect(handled).toEqual(expect.arrayContaining(['t-apply', 't-skip']));
  });

  it("logs a failed job with the fields it names, never the job's data", async () => {
    await queue.add(thingJob.name, { id: 't-fail', secret: 's3cret-c', outcome: 'fail' });
    const failed = await logLine('thing job failed', 't-fail');
    expect(failed).toMatchObject({ attempt: 1, thingId: 't-fail', err: { message: 'boom' } });
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });

  it('a payload outside the contract fails its job without reaching the handler, logged without its data', async () => {
    const job = await queue.add(thingJob.name, { id: 't-bad', secret: 's3cret-d' } as never);
    for (let waited = 0; !(await job.isFailed()) && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await job.isFailed()).toBe(true);
    expect(handled).not.toContain('t-bad');
    const failed = lines.find((l) => l.msg === 'thing job failed' && l.jobId === job.id);
    expect(failed).toMatchObject({ attempt: 1 });
    expect(failed).not.toHaveProperty('thingId');
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });

  it('answers /healthz, /readyz (Postgres and Redis) and /metrics on its own port', async () => {
    const base = `http://127.0.0.1:${worker.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('app="test-worker"');
  });

  it('exports job metrics from BullMQ’s real events: processed, skipped, retried, failed, attempt times, queue depth', async () => {
    const metricsUrl = `http://127.0.0.1:${worker.port}/metrics`;
    const before = await scrape(metricsUrl);
    const of = (e: typeof before, name: string, labels: Record<string, string> = {}) =>
      sampleSum(e, name, { queue: 'things', ...labels });

    const jobs = await Promise.all([
      queue.add(thingJob.name, { id: 'm-apply', secret: 's', outcome: 'apply' }),
      queue.add(thingJob.name, { id: 'm-skip', secret: 's', outcome: 'skip' }),
      queue.add(thingJob.name, { id: 'm-fail', secret: 's', outcome: 'fail' }),
      // Two attempts, the first fails: one retry, then completed.
      queue.add(thingJob.name, { id: 'm-flaky', secret: 's', outcome: 'flaky' }, { attempts: 2, backoff: 0 }),
    ]);
    const settled = async () => {
      const states = await Promise.all(jobs.map((j) => j.getState()));
      return states.every((state) => state === 'completed' || state === 'failed');
    };
    for (let waited = 0; !(await settled()) && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A job waiting its turn far ahead, to be seen in the depth.
    const later = await queue.add(thingJob.name, { id: 'm-later', secret: 's', outcome: 'apply' }, { delay: 600_000 });
    const after = await scrape(metricsUrl);
    await later.remove();

    const delta = (name: string, labels: Record<string, string> = {}) =>
      of(after, name, labels) - of(before, name, labels);
    expect(delta('vt_jobs_processed_total')).toBe(3); // apply, skip, flaky on its second attempt
    expect(delta('vt_jobs_skipped_total', { reason: 'duplicate' })).toBe(1);
    expect(delta('vt_jobs_retried_total')).toBe(1); // flaky's first attempt
    expect(delta('vt_jobs_failed_total')).toBe(1); // fail: its one attempt used up
    expect(delta('vt_job_duration_seconds_count', { result: 'completed' })).toBe(3);
    expect(delta('vt_job_duration_seconds_count', { result: 'failed' })).toBe(2);
    expect(delta('vt_job_duration_seconds_sum')).toBeGreaterThan(0);
    expect(of(after, 'vt_queue_jobs', { state: 'delayed' })).toBe(1);
    expect(of(after, 'vt_queue_jobs', { state: 'failed' })).toBe(await queue.getFailedCount());
    expect(of(after, 'vt_queue_jobs', { state: 'waiting' })).toBe(0);

    // What Prometheus's own linter says of the whole exposition.
    const lint = await promtool(['check', 'metrics'], after.text);
    expect(lint.output).toBe('');
    expect(lint.code).toBe(0);
  });
});
