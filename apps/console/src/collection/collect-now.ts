import { COLLECT_NOW_LIMIT } from '@vt/contracts/console';
import { answerScheduleJob, enqueue, type Queue } from '@vt/queue';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';

/** Starting a collection for one property from the console: limited, then queued for the collector. */
export interface CollectNow {
  /** When the property may start its next collection; null when it may now. */
  availableAt(propertyId: string): Promise<Date | null>;
  /**
   * Takes the property's turn and queues the collection of `day` for it: the collector's own
   * schedule job, for that property only. Null when done; else when the next turn comes.
   */
  start(propertyId: string, day: string): Promise<Date | null>;
}

/**
 * One collection per property per window (COLLECT_NOW_LIMIT), shared by every console replica
 * through Redis: a turn is one key set only if absent, expiring with the window. The job is the
 * daily schedule's (answerScheduleJob), so the collector asks each question of the day once
 * (prompt × platform × day) however it was started. Each property's turn carries its own hash tag
 * (`{vt:<property>}:collect-now`): on a Redis Cluster the turns spread over the masters rather
 * than crowd the prefix's one slot.
 */
export function createCollectNow(options: {
  redis: RedisConnection;
  keyPrefix: string;
  queue: Queue;
  now: () => Date;
  windowSeconds?: number;
}): CollectNow {
  const window = options.windowSeconds ?? COLLECT_NOW_LIMIT.windowSeconds;
  const keyOf = (propertyId: string) => collectNowKey(options.keyPrefix, propertyId);
  const availableAt = async (propertyId: string) => {
    const ms = await options.redis.pttl(keyOf(propertyId));
    return ms > 0 ? new Date(options.now().getTime() + ms) : null;
  };
  return {
    availableAt,
    async start(propertyId, day) {
      const taken = await options.redis.set(keyOf(propertyId), options.now().toISOString(), 'EX', window, 'NX');
      if (taken !== 'OK') return (await availableAt(propertyId)) ?? new Date(options.now().getTime() + 1000);
      try {
        const jobId = `collect-now-${propertyId}-${options.now().getTime()}`;
        await enqueue(options.queue, answerScheduleJob, { day, propertyId }, jobId);
      } catch (err) {
        // Not queued: the turn is not spent.
        await options.redis.del(keyOf(propertyId));
        throw err;
      }
      return null;
    },
  };
}

/** The Redis key of a property's collect-now turn, under the property's own hash tag. */
export function collectNowKey(prefix: string, propertyId: string): string {
  return taggedRedisKey(prefix, propertyId, 'collect-now');
}
