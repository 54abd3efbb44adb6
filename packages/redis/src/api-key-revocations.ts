import type { RedisConnection } from './connections.ts';
import { redisKey } from './keys.ts';

// Read API key revocations reach every read-api replica before its next request (issue 33,
// finding 4): whoever revokes a key bumps one version number in Redis after the revocation is
// committed, and each replica reads the version before it trusts its key cache, dropping the cache
// when the version moved. One GET per request; rare writes, so the key may share the `{vt}` slot.

const revocationsKey = (keyPrefix: string) => redisKey(keyPrefix, 'api-key-revocations');

/** Tells every read API replica that a key was revoked: call once the revocation is committed. */
export async function announceApiKeyRevocation(redis: RedisConnection, keyPrefix: string): Promise<void> {
  await redis.incr(revocationsKey(keyPrefix));
}

/** The revocation version now: changes whenever a key is revoked (null before the first). */
export function apiKeyRevocationVersion(redis: RedisConnection, keyPrefix: string): Promise<string | null> {
  return redis.get(revocationsKey(keyPrefix));
}
