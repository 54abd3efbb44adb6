import { randomUUID } from 'node:crypto';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, testEnv } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { claimNamedBatch, NAMED_BATCH_DEFAULTS, namedBatchKey } from './named-batches.ts';

// The claim on a named batch's Idempotency-Key, against the real Redis.

const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const prefix = isolatedQueuePrefix();
// The producer connection refuses commands until it is connected.
await new Promise((resolve) => redis.once('ready', resolve));
afterAll(() => closeRedisConnection(redis));

const quick = { ...NAMED_BATCH_DEFAULTS, waitMs: 300 };
const property = () => randomUUID();

describe('claimNamedBatch', () => {
  it('[CRAWL-17] the first attempt claims the key; once settled, every later attempt is a repeat with its figures', async () => {
    const p = property();
    const first = await claimNamedBatch(redis, prefix, p, 'batch-1', quick);
    expect(first.kind).toBe('first');
    if (first.kind !== 'first') return;
    await first.settle({ kept: 7, received: 700 });
    expect(await claimNamedBatch(redis, prefix, p, 'batch-1', quick)).toEqual({
      kind: 'repeat',
      figures: { kept: 7, received: 700 },
    });
    // Another property's batch of the same name is its own.
    expect((await claimNamedBatch(redis, prefix, property(), 'batch-1', quick)).kind).toBe('first');
  });

  it('[CRAWL-17] an overlapping attempt waits for the first one and answers its figures', async () => {
    const p = property();
    const first = await claimNamedBatch(redis, prefix, p, 'k', quick);
    if (first.kind !== 'first') throw new Error('expected the first claim');
    const waiting = claimNamedBatch(redis, prefix, p, 'k', { ...quick, waitMs: 5000 });
    await new Promise((r) => setTimeout(r, 200));
    await first.settle({ kept: 1, received: 2 });
    expect(await waiting).toEqual({ kind: 'repeat', figures: { kept: 1, received: 2 } });
  });

  it('[CRAWL-17] an overlapping attempt that outwaits its patience is told the batch is in progress', async () => {
    const p = property();
    expect((await claimNamedBatch(redis, prefix, p, 'k', quick)).kind).toBe('first');
    const started = Date.now();
    expect(await claimNamedBatch(redis, prefix, p, 'k', quick)).toEqual({ kind: 'in_progress' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(quick.waitMs);
  });

  it('[CRAWL-17] a released claim lets the waiting attempt take the key over', async () => {
    const p = property();
    const first = await claimNamedBatch(redis, prefix, p, 'k', quick);
    if (first.kind !== 'first') throw new Error('expected the first claim');
    const waiting = claimNamedBatch(redis, prefix, p, 'k', { ...quick, waitMs: 5000 });
    await new Promise((r) => setTimeout(r, 150));
    await first.release();
    expect((await waiting).kind).toBe('first');
  });

  it("[CRAWL-17] a live claim is renewed past its pending time; a dead gateway's claim lapses and is taken over", async () => {
    const short = { ...quick, pendingSeconds: 1 };
    const p = property();
    const live = await claimNamedBatch(redis, prefix, p, 'live', short);
    if (live.kind !== 'first') throw new Error('expected the first claim');
    await new Promise((r) => setTimeout(r, 1600));
    expect((await claimNamedBatch(redis, prefix, p, 'live', short)).kind).toBe('in_progress');
    await live.release();

    // What a SIGKILLed gateway leaves: a pending claim nobody renews.
    await redis.set(namedBatchKey(prefix, p, 'dead'), 'pending:gone', 'EX', 1);
    expect((await claimNamedBatch(redis, prefix, p, 'dead', short)).kind).toBe('in_progress');
    await new Promise((r) => setTimeout(r, 1100));
    const next = await claimNamedBatch(redis, prefix, p, 'dead', short);
    expect(next.kind).toBe('first');
    expect((await claimNamedBatch(redis, prefix, p, 'dead', quick)).kind).toBe('in_progress');
    if (next.kind === 'first') await next.release();
  });

  it('[CRAWL-13] the Redis key is a hash of the property and name, and no value holds anything but figures', async () => {
    const p = property();
    const first = await claimNamedBatch(redis, prefix, p, 'a name with spaces / and : colons', quick);
    if (first.kind !== 'first') throw new Error('expected the first claim');
    await first.settle({ kept: 3, received: 4 });
    const keys = await redis.keys(`${prefix.slice(0, -1)}:*}:named-batch`);
    expect(keys.some((k) => k.includes('colons') || k.includes(p))).toBe(false);
    const values = await Promise.all(keys.map((k) => redis.get(k)));
    expect(values).toContain(JSON.stringify({ kept: 3, received: 4 }));
    const ttl = await redis.ttl(keys[values.indexOf(JSON.stringify({ kept: 3, received: 4 }))]!);
    expect(ttl).toBeGreaterThan(24 * 3600 - 60);
  });
});
