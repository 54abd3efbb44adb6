import type { RedisConnection } from '@vt/redis';

/**
 * Failures of one kind counted per key, where each failure past the free ones makes the next
 * attempt wait twice as long as the last (1 s, 2 s, 4 s … up to a cap): the owner who mistypes
 * twice does not notice, a guesser at one account from one place gets a few dozen tries a day.
 */
export interface BackoffCounter {
  /** Milliseconds until `key` may try again; 0 when it may now. */
  waitFor(key: string): Promise<number>;
  /** Counts a failure for `key`; answers the wait it now has. */
  fail(key: string): Promise<number>;
  /** Forgets `key`'s failures (it succeeded). */
  clear(key: string): Promise<void>;
}

export interface BackoffSettings {
  /** Failures that cost nothing. */
  free: number;
  maxWaitMs: number;
  /** A key's failures are forgotten this long after its last one. */
  memoryMs: number;
}

/** The wait after the `failures`-th failure. */
export function backoffAfter(failures: number, settings: Pick<BackoffSettings, 'free' | 'maxWaitMs'>): number {
  if (failures <= settings.free) return 0;
  return Math.min(1000 * 2 ** (failures - settings.free - 1), settings.maxWaitMs);
}

// One round trip, atomic: two failures at once both count, and `until` follows the higher count.
const FAIL_SCRIPT = `
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local free = tonumber(ARGV[2])
local wait = 0
if n > free then wait = math.min(1000 * 2 ^ (n - free - 1), tonumber(ARGV[3])) end
redis.call('HSET', KEYS[1], 'until', tonumber(ARGV[1]) + wait)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return wait`;

/**
 * A BackoffCounter in Redis, shared by every console replica; while Redis is away each replica
 * counts in memory (as the other limiters do), so an outage neither opens the door nor locks it.
 */
export function createBackoffCounter(options: {
  redis: RedisConnection;
  settings: BackoffSettings;
  now?: () => number;
}): BackoffCounter {
  const { redis, settings } = options;
  const now = options.now ?? Date.now;
  const memory = new Map<string, { n: number; until: number; forgetAt: number }>();
  const inMemory = (key: string) => {
    const entry = memory.get(key);
    if (entry && entry.forgetAt <= now()) memory.delete(key);
    return memory.get(key);
  };
  const ready = () => redis.status === 'ready';

  return {
    async waitFor(key) {
      if (ready()) {
        try {
          const until = await redis.hget(key, 'until');
          return until === null ? 0 : Math.max(0, Number(until) - now());
        } catch {
          // fall through to memory
        }
      }
      return Math.max(0, (inMemory(key)?.until ?? 0) - now());
    },
    async fail(key) {
      if (ready()) {
        try {
          const args = [now(), settings.free, settings.maxWaitMs, settings.memoryMs];
          return Number(await redis.eval(FAIL_SCRIPT, 1, key, ...args));
        } catch {
          // fall through to memory
        }
      }
      const n = (inMemory(key)?.n ?? 0) + 1;
      const wait = backoffAfter(n, settings);
      memory.set(key, { n, until: now() + wait, forgetAt: now() + settings.memoryMs });
      return wait;
    },
    async clear(key) {
      memory.delete(key);
      if (ready()) await redis.del(key).catch(() => undefined);
    },
  };
}
