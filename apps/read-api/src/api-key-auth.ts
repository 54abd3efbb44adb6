import type { ApiErrorCode } from '@vt/contracts';
import { hashApiKey, isWellFormedApiKey } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';
import type { KeyPrincipal } from '@vt/read-model';
import { LRUCache } from 'lru-cache';

export type AuthOutcome =
  | { ok: true; principal: KeyPrincipal }
  | { ok: false; code: Extract<ApiErrorCode, 'MISSING_AUTH' | 'INVALID_AUTH' | 'INVALID_KEY'>; message: string };

export interface ApiKeyAuthenticator {
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
}

// RFC 9110: the scheme is case-insensitive; exactly one token follows one space.
const BEARER = /^bearer ([^\s]+)$/i;
const UNKNOWN = Symbol('unknown key');
const invalidKey: AuthOutcome = {
  ok: false,
  code: 'INVALID_KEY',
  message: 'The API key is malformed, unknown or revoked.',
};

/** A key's last_used_at is written at most this often (per replica, and in SQL across replicas). */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/**
 * Bearer API keys, looked up by SHA-256 and cached per replica for `cacheTtlMs`: a plan change or
 * a scope change reaches every replica within that time. A revocation reaches it before its next
 * request: `revocationVersion` (one Redis GET per request) moves on every revoke, and a replica
 * that sees it move drops its whole cache first (issue 33: a revoked key worked for 5 s more).
 * When Redis cannot answer, the cache's lifetime bounds it again. Unknown keys are cached too, so a flood of made-up keys costs
 * one query per key per TTL, and concurrent misses on one key share one query.
 */
export function createApiKeyAuthenticator(
  db: PrismaClient,
  options: {
    cacheTtlMs: number;
    maxCachedKeys?: number;
    /** A failed last_used_at write (it never fails the request). */
    onLastUsedError?: (err: unknown) => void;
    /** The key revocation version (`apiKeyRevocationVersion`); without it only the TTL expires keys. */
    revocationVersion?: () => Promise<string | null>;
    /** Redis did not answer the revocation version: the cache is trusted for its TTL. */
    onRevocationCheckError?: (err: unknown) => void;
    now?: () => number;
  },
): ApiKeyAuthenticator {
  const now = options.now ?? Date.now;
  // When this replica last wrote each key's last_used_at; bounded like the key cache.
  const lastWritten = new LRUCache<string, number>({ max: options.maxCachedKeys ?? 10_000 });
  const noteUse = (keyId: string) => {
    const at = now();
    if (at - (lastWritten.get(keyId) ?? Number.NEGATIVE_INFINITY) < LAST_USED_WRITE_INTERVAL_MS) return;
    lastWritten.set(keyId, at);
    // Not awaited: the answer does not wait for a bookkeeping write. The WHERE keeps replicas from
    // writing the same key more than once per interval between them.
    db.$executeRaw`
      UPDATE api_keys SET last_used_at = now()
      WHERE id = ${keyId}::uuid
        AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${LAST_USED_WRITE_INTERVAL_MS / 1000}))`.catch(
      (err: unknown) => {
        lastWritten.delete(keyId);
        options.onLastUsedError?.(err);
      },
    );
  };
  const cache = new LRUCache<string, KeyPrincipal | typeof UNKNOWN>({
    max: options.maxCachedKeys ?? 10_000,
    ttl: options.cacheTtlMs,
    // A failed lookup (Postgres away) is not cached: the next request tries again.
    fetchMethod: async (keyHash) => (await loadPrincipal(db, keyHash)) ?? UNKNOWN,
  });

  let seenVersion: string | null | undefined;
  /** Drops every cached key when a revocation happened since the last look. */
  const honourRevocations = async () => {
    if (!options.revocationVersion) return;
    let version: string | null;
    try {
      version = await options.revocationVersion();
    } catch (err) {
      options.onRevocationCheckError?.(err);
      return;
    }
    if (version !== seenVersion) {
      // clear() also aborts lookups in flight, whose answers may predate the revocation.
      cache.clear();
      seenVersion = version;
    }
  };

  return {
    async authenticate(authorization) {
      if (authorization === undefined) {
        return { ok: false, code: 'MISSING_AUTH', message: 'Send the API key as `Authorization: Bearer <key>`.' };
      }
      const match = BEARER.exec(authorization);
      if (!match?.[1]) {
        return {
          ok: false,
          code: 'INVALID_AUTH',
          message: 'The Authorization header must be `Bearer <key>`: the word Bearer, one space, then the key.',
        };
      }
      const key = match[1];
      // Shape and checksum first: a malformed key costs no lookup.
      if (!isWellFormedApiKey(key)) return invalidKey;
      await honourRevocations();
      const principal = await cache.fetch(hashApiKey(key));
      if (principal === undefined || principal === UNKNOWN) return invalidKey;
      noteUse(principal.keyId);
      return { ok: true, principal };
    },
  };
}

/** The key's team, and its properties that are in scope and on an active paid plan; null when unknown or revoked. */
async function loadPrincipal(db: PrismaClient, keyHash: string): Promise<KeyPrincipal | null> {
  const [row] = await db.$queryRaw<{ key_id: string; team_id: string; property_ids: string[] }[]>`
    SELECT k.id AS key_id, k.team_id,
      ARRAY(
        SELECT p.id::text FROM properties p
        WHERE p.team_id = k.team_id AND p.plan <> 'free' AND p.subscription_status = 'active'
          AND (k.all_properties OR EXISTS (
            SELECT 1 FROM api_key_properties kp WHERE kp.api_key_id = k.id AND kp.property_id = p.id))
        ORDER BY p.id
      ) AS property_ids
    FROM api_keys k
    WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL`;
  return row ? { keyId: row.key_id, teamId: row.team_id, propertyIds: row.property_ids } : null;
}
