import { randomUUID } from 'node:crypto';
import { answerScheduleJob, createQueue } from '@vt/queue';
import { closeRedisConnection, createProducerConnection, keySlot } from '@vt/redis';
import { isolatedQueuePrefix, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectNowKey, createCollectNow } from './collection/collect-now.ts';
import { createInvitationLimiter, invitationCounterKey } from './invitations/invitation-limiter.ts';

// Issue 30: on a Redis Cluster, keys written per property or per person carry a hash tag of their
// own, so they spread over the masters instead of crowding the one slot of the deployment's prefix
// (`{vt}`). The keys read back here are the ones the console wrote to the run's Redis.

const prefix = isolatedQueuePrefix();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const queue = createQueue(answerScheduleJob, redis, prefix);
// A producer connection queues nothing while it connects (enableOfflineQueue off).
beforeAll(async () => {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix.slice(0, -1)}*`);
  if (keys.length > 0) await redis.del(...keys);
  await queue.close();
  await closeRedisConnection(redis);
});

/** The run's keys under the prefix's namespace that end in `suffix`, as written. */
const written = async (suffix: string) =>
  (await redis.keys(`${prefix.slice(0, -1)}*`)).filter((k) => k.endsWith(suffix));

describe('console keys on their own hash tags (issue 30)', () => {
  it("two properties' collect-now turns land in different slots, neither on the prefix's", async () => {
    const collectNow = createCollectNow({ redis, keyPrefix: prefix, queue, now: () => new Date() });
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await collectNow.start(a, '2026-11-26')).toBeNull();
    expect(await collectNow.start(b, '2026-11-26')).toBeNull();
    // The turn is taken under the tagged key: a second start waits for the window.
    expect(await collectNow.start(a, '2026-11-26')).toBeInstanceOf(Date);

    const keys = await written(':collect-now');
    expect(keys.sort()).toEqual([collectNowKey(prefix, a), collectNowKey(prefix, b)].sort());
    expect(collectNowKey(prefix, a)).toBe(`${prefix.slice(0, -1)}:${a}}:collect-now`);
    const slots = keys.map(keySlot);
    expect(new Set(slots).size).toBe(2);
    expect(slots).not.toContain(keySlot(prefix));
  });

  it("two teams' and two people's invitation counts land in different slots, neither on the prefix's", async () => {
    const limiter = createInvitationLimiter({ redis, keyPrefix: prefix, perTeam: 2, perActor: 2, windowSeconds: 60 });
    const [teamA, teamB, actorA, actorB] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(await limiter.take(teamA, actorA)).toBe(0);
    expect(await limiter.take(teamB, actorB)).toBe(0);
    expect(await limiter.take(teamA, actorA)).toBe(0);
    // The count lives under the tagged key: the team's third send waits.
    expect(await limiter.take(teamA, actorB)).toBeGreaterThan(0);

    const teamKeys = await written(':invitations-team');
    const actorKeys = await written(':invitations-actor');
    expect(teamKeys.sort()).toEqual(
      [invitationCounterKey(prefix, 'team', teamA), invitationCounterKey(prefix, 'team', teamB)].sort(),
    );
    expect(actorKeys.sort()).toEqual(
      [invitationCounterKey(prefix, 'actor', actorA), invitationCounterKey(prefix, 'actor', actorB)].sort(),
    );
    const slots = [...teamKeys, ...actorKeys].map(keySlot);
    expect(new Set(slots).size).toBe(4);
    expect(slots).not.toContain(keySlot(prefix));
  });
});
