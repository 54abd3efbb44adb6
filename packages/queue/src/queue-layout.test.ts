import { closeRedisConnection, createProducerConnection, redisKey } from '@vt/redis';
import { isolatedQueuePrefix, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlBatchJob, leadJob } from './job-contracts.ts';
import { createQueue, enqueue } from './producer.ts';
import { claimQueueLayout, QueueLayoutBusyError, queueLayoutGate } from './queue-layout.ts';
import { shardPrefix } from './queue-shards.ts';

// Changing QUEUE_SHARDS is drain-then-switch: the real Redis, a prefix of this file's own.

const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
afterAll(() => closeRedisConnection(redis));
// A producer connection refuses commands until it is connected (it queues nothing).
beforeAll(async () => {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
});

const batch = {
  batchId: '00000000-0000-4000-8000-000000000001',
  propertyId: '00000000-0000-4000-8000-000000000002',
  receivedAt: '2026-11-26T00:00:00Z',
  events: [],
};

describe('the queue shard count', () => {
  it('an upgrade (no record) is the one-shard layout; a change is refused while the old layout holds a job, allowed once drained', async () => {
    const prefix = isolatedQueuePrefix();
    expect(await claimQueueLayout(redis, prefix, 1)).toEqual({ previous: 1 });
    const old = createQueue(crawlBatchJob, redis, shardPrefix(prefix, 0, 1));
    try {
      await enqueue(old, crawlBatchJob, batch, 'queued-before-the-switch');
      const refused = await claimQueueLayout(redis, prefix, 3).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(QueueLayoutBusyError);
      expect(refused).toMatchObject({ recorded: 1, wanted: 3, backlog: 1 });
      expect((refused as Error).message).toContain('Changing the shard count');
      expect(await redis.get(redisKey(prefix, 'queue-shards'))).toBe('1'); // nothing switched

      await old.drain(true); // what the old workers do, done here at once
      expect(await claimQueueLayout(redis, prefix, 3)).toEqual({ previous: 1 });
      expect(await redis.get(redisKey(prefix, 'queue-shards'))).toBe('3');
    } finally {
      await old.obliterate({ force: true });
      await old.close();
    }
  });

  it('counts every shard of the recorded layout, lead queues too, and delayed retries', async () => {
    const prefix = isolatedQueuePrefix();
    await claimQueueLayout(redis, prefix, 2);
    const shard1 = createQueue(leadJob, redis, shardPrefix(prefix, 1, 2));
    try {
      await shard1.add(leadJob.name, {}, { jobId: 'retrying', delay: 60_000 });
      await expect(claimQueueLayout(redis, prefix, 4)).rejects.toMatchObject({ recorded: 2, backlog: 1 });
    } finally {
      await shard1.obliterate({ force: true });
      await shard1.close();
    }
    expect(await claimQueueLayout(redis, prefix, 4)).toEqual({ previous: 2 });
  });

  it("the gateway's gate refuses every enqueue while busy and opens, by itself, once the old layout is drained", async () => {
    const prefix = isolatedQueuePrefix();
    const old = createQueue(crawlBatchJob, redis, prefix);
    const switched: number[] = [];
    try {
      await enqueue(old, crawlBatchJob, batch, 'waiting');
      const gate = queueLayoutGate(redis, prefix, 3, (from) => switched.push(from));
      await expect(gate.ready()).rejects.toBeInstanceOf(QueueLayoutBusyError);
      await expect(gate.ready()).rejects.toBeInstanceOf(QueueLayoutBusyError);
      await old.drain(true);
      await expect(gate.ready()).resolves.toBeUndefined();
      expect(switched).toEqual([1]);
    } finally {
      await old.obliterate({ force: true });
      await old.close();
    }
  });
});
