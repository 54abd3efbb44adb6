import { createHmac, randomBytes } from 'node:crypto';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';
import { LRUCache } from 'lru-cache';

// Attempts that fail authentication (a wrong crawl token; a webhook refused before its signature
// verified) are counted per property and per source address in fixed one-minute windows shared by
// every replica through Redis. Past either limit the gateway answers 429 instead of saying why.
// Only a failed attempt is counted or checked: a request with valid credentials never reaches the
// limiter, so it costs accepted requests nothing, and a stranger flooding a property (or sharing
// a sender's address, a CDN's egress say) can never get the property's own senders refused.

export interface FailedAuthLimits {
  /** Failed attempts per property per window, from all sources together. */
  perProperty: number;
  /** Failed attempts per source address per window, to all properties together. */
  perSource: number;
  windowSeconds: number;
}

/** Generous for a sender with a stale token, far below what turns a log or a status. */
export const FAILED_AUTH_DEFAULTS: FailedAuthLimits = { perProperty: 120, perSource: 30, windowSeconds: 60 };

/**
 * Limits no test of another feature reaches: for suites that send many refused requests to check
 * something else (the fuzzer, the body caps). The limits themselves are tested at their defaults.
 */
export const FAILED_AUTH_UNREACHED: FailedAuthLimits = { perProperty: 1e9, perSource: 1e9, windowSeconds: 60 };

export interface FailedAuthVerdict {
  limited: boolean;
  /** Whole seconds until the fuller of the two windows ends (at least 1). */
  retryAfterSeconds: number;
}

export interface FailedAuthLimiter {
  /** Counts one failed attempt at the property from the address; never rejects. */
  fail(propertyId: string, sourceAddress: string | undefined): Promise<FailedAuthVerdict>;
}

// INCR, and the window's expiry on its first hit; answers the count and the milliseconds left.
const HIT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

export function createFailedAuthLimiter(options: {
  redis: RedisConnection;
  keyPrefix: string;
  /**
   * Keys the source address's counter (HMAC): Redis never holds an address in clear. A deployment
   * secret, so every replica counts an address alike; a random one (each replica its own counter)
   * when the deployment has none.
   */
  addressKey?: string;
  limits?: FailedAuthLimits;
  onRedisError?: (err: unknown) => void;
}): FailedAuthLimiter {
  const limits = options.limits ?? FAILED_AUTH_DEFAULTS;
  const windowMs = limits.windowSeconds * 1000;
  const addressKey = options.addressKey ?? randomBytes(32).toString('hex');
  // With Redis away each replica counts on its own, bounded: a limit per replica is still a limit.
  const local = new LRUCache<string, { count: number; endsAt: number }>({ max: 50_000 });
  const hitLocally = (key: string): [number, number] => {
    const now = Date.now();
    const window = local.get(key);
    if (!window || window.endsAt <= now) {
      local.set(key, { count: 1, endsAt: now + windowMs });
      return [1, windowMs];
    }
    window.count++;
    return [window.count, window.endsAt - now];
  };
  const hit = async (key: string): Promise<[number, number]> => {
    try {
      return (await options.redis.eval(HIT_SCRIPT, 1, key, String(windowMs))) as [number, number];
    } catch (err) {
      options.onRedisError?.(err);
      return hitLocally(key);
    }
  };
  return {
    async fail(propertyId, sourceAddress) {
      const source = createHmac('sha256', addressKey)
        .update(sourceAddress ?? 'unknown')
        .digest('base64url')
        .slice(0, 22);
      // Two keys of their own hash tags (a property's, an address's): one eval each, in parallel.
      const [[perProperty, propertyMs], [perSource, sourceMs]] = await Promise.all([
        hit(taggedRedisKey(options.keyPrefix, propertyId, 'failed-auth')),
        hit(taggedRedisKey(options.keyPrefix, `src-${source}`, 'failed-auth')),
      ]);
      const overProperty = perProperty > limits.perProperty;
      const overSource = perSource > limits.perSource;
      const waitMs = Math.max(overProperty ? propertyMs : 0, overSource ? sourceMs : 0);
      return { limited: overProperty || overSource, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}
