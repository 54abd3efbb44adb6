import { Writable } from 'node:stream';
import { createLogger } from '@vt/logger';
import type { JobContract } from '@vt/queue';
import { isolatedQueuePrefix, sampleSum, scrape, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobWorker } from './job-worker.ts';
import { startQueueWorker } from './queue-worker.ts';

// A worker process that works two queues and fills one of them, as the answer collector does: a
// job on the first queue enqueues a job on the second through the shell's queues.

const contract = (queue: string) =>
  ({
    queue,
    name: 'relay',
    schema: z.strictObject({ id: z.string() }),
    options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
  }) satisfies JobContract;
const inbound = contract('relay-in');
const outbound = contract('relay-out');

const lines: Record<string, unknown>[] = [];
const relayed: string[] = [];
let worker: Awaited<ReturnType<typeof startQueueWorker>>;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  worker = await startQueueWorker({
    name: 'relay-worker',
    config: {
      ...testEnv,
      QUEUE_PREFIX: isolatedQueuePrefix(),
      HOST: '127.0.0.1',
      DATABASE_POOL_MAX: 2,
      DATABASE_CONNECT_TIMEOUT_MS: 5000,
      DATABASE_IDLE_TIMEOUT_MS: 10_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
    },
    port: 0,
    logger: createLogger({ name: 'relay-worker', level: 'info', destination }),
    enqueues: true,
    workers: ({ queue }) => [
      jobWorker({
        contract: inbound,
        concurrency: 1,
        handle: async ({ id }) => {
          await queue(outbound).add(outbound.name, { id: `${id}-relayed` });
          return { applied: true };
        },
        jobFields: ({ id }) => ({ id }),
        claimsProcessedJobs: false,
      }),
      jobWorker({
        contract: outbound,
        concurrency: 2,
        handle: async ({ id }) => {
          relayed.push(id);
          return { applied: true };
        },
        jobFields: ({ id }) => ({ id }),
        claimsProcessedJobs: false,
      }),
    ],
  });
});

afterAll(async () => {
  for (const each of [inbound, outbound]) await worker.queue(each).obliterate({ force: true });
  await worker.close();
});

describe('startQueueWorker with several queues', () => {
  it('works every queue it is given, and a processor enqueues through the queues it is handed', async () => {
    await worker.queue(inbound).add(inbound.name, { id: 'r1' });
    for (let waited = 0; relayed.length === 0 && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(relayed).toEqual(['r1-relayed']);
    expect(lines.find((l) => l.msg === 'relay-worker started')).toMatchObject({ queues: ['relay-in', 'relay-out'] });
  });

  it('reports the job metrics and depth of each queue, and is ready on Postgres and its producer connection', async () => {
    const base = `http://127.0.0.1:${worker.port}`;
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', redis: 'ok' },
    });
    // A job counts once BullMQ's completed event has run, just after its processor returned.
    const processed = (m: Awaited<ReturnType<typeof scrape>>, queue: string) =>
      sampleSum(m, 'vt_jobs_processed_total', { queue });
    let metrics = await scrape(`${base}/metrics`);
    for (
      let waited = 0;
      (processed(metrics, 'relay-in') === 0 || processed(metrics, 'relay-out') === 0) && waited < 10_000;
      waited += 50
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      metrics = await scrape(`${base}/metrics`);
    }
    for (const queue of ['relay-in', 'relay-out']) {
      expect(processed(metrics, queue)).toBe(1);
      expect(metrics.text).toMatch(new RegExp(`vt_queue_jobs\\{[^}]*queue="${queue}"[^}]*state="waiting"`));
    }
  });
});
