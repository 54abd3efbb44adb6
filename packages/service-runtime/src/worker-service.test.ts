import { Writable } from 'node:stream';
import { createLogger } from '@vt/logger';
import { closeRedisConnection, createProducerConnection, createWorkerConnection } from '@vt/redis';
import { isolatedQueuePrefix, testEnv } from '@vt/test-support';
import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { startWorkerService } from './worker-service.ts';

describe('startWorkerService', () => {
  it("logs a consumer's failed jobs with the fields it names, never the job's data", async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const prefix = isolatedQueuePrefix();
    const producer = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    const workerConnection = createWorkerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    const queue = new Queue('things', { connection: producer, prefix });
    // A real BullMQ worker whose every job fails once, for good.
    const consumer = new Worker(
      'things',
      async () => {
        throw new Error('boom');
      },
      { connection: workerConnection, prefix, autorun: false },
    );
    const service = await startWorkerService({
      name: 'test-worker',
      logger: createLogger({ name: 'test-worker', level: 'info', destination }),
      host: '127.0.0.1',
      port: 0,
      readinessChecks: [],
      consumers: [{ consumer, label: 'thing', jobFields: (data) => ({ thingId: (data as { id?: string }).id }) }],
      closeResources: async () => {},
    });
    try {
      await queue.add('thing', { id: 't-1', secret: 's3cret' }, { attempts: 1 });
      for (let waited = 0; !lines.some((l) => l.msg === 'thing job failed') && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const failed = lines.find((l) => l.msg === 'thing job failed');
      expect(failed).toMatchObject({ attempt: 1, thingId: 't-1', err: { message: 'boom' } });
      expect(JSON.stringify(lines)).not.toContain('s3cret');
    } finally {
      await service.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await closeRedisConnection(producer);
      await closeRedisConnection(workerConnection);
    }
  });
});
