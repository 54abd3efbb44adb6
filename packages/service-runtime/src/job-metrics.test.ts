import { createQueue, type JobContract, type Queue } from '@vt/queue';
import { closeRedisConnection, createProducerConnection, type Redis } from '@vt/redis';
import { isolatedQueuePrefix, parseExposition, sampleSum, testEnv } from '@vt/test-support';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { watchQueueDepth } from './job-metrics.ts';

// Two shards of one queue, as the gateway holds them under QUEUE_SHARDS=2: the gauge reports
// their sum, and scrapes that overlap in time each report that sum, never a multiple of it.

const contract = {
  queue: 'depth',
  name: 'depth',
  schema: z.strictObject({ n: z.number() }),
  options: { attempts: 1 },
} satisfies JobContract;

let redis: Redis;
let shards: Queue[];

beforeAll(async () => {
  redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
  const prefix = isolatedQueuePrefix();
  shards = [createQueue(contract, redis, `${prefix}:0`), createQueue(contract, redis, `${prefix}:1`)];
  await shards[0]!.add(contract.name, { n: 1 });
  await shards[1]!.add(contract.name, { n: 2 });
  await shards[1]!.add(contract.name, { n: 3 }, { delay: 60_000 });
});

afterAll(async () => {
  for (const shard of shards) await shard.obliterate({ force: true });
  await Promise.all(shards.map((shard) => shard.close()));
  await closeRedisConnection(redis);
});

describe('watchQueueDepth', () => {
  it("adds up a queue's shards, and overlapping scrapes each report the sum once", async () => {
    const registry = new Registry();
    watchQueueDepth(registry, shards);
    const scrapes = await Promise.all(Array.from({ length: 4 }, () => registry.metrics()));
    for (const text of scrapes) {
      const exposition = parseExposition(text);
      expect(sampleSum(exposition, 'vt_queue_jobs', { queue: 'depth', state: 'waiting' })).toBe(2);
      expect(sampleSum(exposition, 'vt_queue_jobs', { queue: 'depth', state: 'delayed' })).toBe(1);
      expect(sampleSum(exposition, 'vt_queue_jobs', { queue: 'depth', state: 'failed' })).toBe(0);
    }
  });
});
