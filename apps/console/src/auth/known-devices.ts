import { createHash, randomBytes } from 'node:crypto';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';

/**
 * Browsers that have signed in to an account: a random token in a long-lived cookie, its SHA-256
 * in Redis naming (by digest) the one email it signed in as. A sign-in from a known device passes
 * the per-account ceiling that stops guessers spread over many addresses, so an attack on an
 * account does not lock its owner out of the browser they use (what the well-known identity
 * providers call a familiar device). The token proves only a past sign-in, never a session.
 */
export interface KnownDevices {
  /** True when `token` is a device that signed in as `email` and has not been forgotten. */
  isKnownFor(token: string | undefined, email: string): Promise<boolean>;
  /**
   * After a successful sign-in: the token to set (a new one unless `token` was already this
   * account's, whose life is then renewed), or undefined when Redis could not keep it.
   */
  remember(token: string | undefined, email: string): Promise<string | undefined>;
  readonly ttlSeconds: number;
}

const TOKEN = /^vtd_[A-Za-z0-9_-]{43}$/;
const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

export function createKnownDevices(options: {
  redis: RedisConnection;
  keyPrefix: string;
  ttlSeconds: number;
}): KnownDevices {
  const { redis, ttlSeconds } = options;
  const keyOf = (token: string) => taggedRedisKey(options.keyPrefix, digest(token), 'known-device');
  const isKnownFor = async (token: string | undefined, email: string) => {
    if (!token || !TOKEN.test(token)) return false;
    // Redis away: no device is known, so the ceiling applies as to anyone (never the other way).
    const owner = await redis.get(keyOf(token)).catch(() => null);
    return owner === digest(email);
  };
  return {
    ttlSeconds,
    isKnownFor,
    async remember(token, email) {
      const kept = token && (await isKnownFor(token, email)) ? token : `vtd_${randomBytes(32).toString('base64url')}`;
      try {
        await redis.set(keyOf(kept), digest(email), 'EX', ttlSeconds);
        return kept;
      } catch {
        return undefined;
      }
    },
  };
}
