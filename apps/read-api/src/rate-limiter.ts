import { type RedisConnection, taggedRedisKey } from '@vt/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window ends. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

export interface ReadRateLimiter {
  consume(keyId: string): Promise<RateLimitDecision>;
}

const WINDOW_SECONDS = 60;

/**
 * `limitPerMinute` requests per API key per fixed one-minute window, counted in Redis so every
 * replica shares one budget: one Lua call (INCR + TTL) per request. The window opens at a key's
 * first request and refills whole when it ends. If Redis is unreachable each replica falls back
 * to its own in-memory window rather than refusing reads.
 */
export function createReadRateLimiter(options: {
  redis: RedisConnection;
  keyPrefix: string;
  limitPerMinute: number;
  now?: () => number;
}): ReadRateLimiter {
  const { limitPerMinute: limit } = options;
  const now = options.now ?? Date.now;
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    // No shared prefix: each key's counter is named whole below, under a hash tag of its own,
    // so on a Redis Cluster the counters of many API keys spread over the masters.
    keyPrefix: '',
    points: limit,
    duration: WINDOW_SECONDS,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ points: limit, duration: WINDOW_SECONDS }),
  });

  const decide = (allowed: boolean, res: RateLimiterRes): RateLimitDecision => {
    const msLeft = Math.max(res.msBeforeNext, 0);
    return {
      allowed,
      limit,
      remaining: allowed ? res.remainingPoints : 0,
      resetAt: Math.ceil((now() + msLeft) / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
    };
  };

  const counterKey = (keyId: string) => taggedRedisKey(options.keyPrefix, keyId, 'read-rate');
  return {
    async consume(keyId) {
      try {
        return decide(true, await limiter.consume(counterKey(keyId)));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(false, rejection);
        throw rejection; // the app's error handler logs it and answers 500
      }
    },
  };
}
