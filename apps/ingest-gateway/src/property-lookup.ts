import { isUuid } from '@vt/contracts';
import type { PrismaClient, Property } from '@vt/db';
import { LRUCache } from 'lru-cache';

/** The property with this id, or null when there is none or the id is not a UUID (Postgres would refuse it). */
export async function findPropertyById(db: Pick<PrismaClient, 'property'>, id: string): Promise<Property | null> {
  return isUuid(id) ? db.property.findUnique({ where: { id } }) : null;
}

export interface PropertyLookup {
  find: (id: string) => Promise<Property | null>;
}

/**
 * Properties by id for the lead webhook, cached for `ttlMs` (0: not cached): a sender posting
 * leads all day should not cost a database round trip per lead. Only for facts that may lag by
 * the TTL (the webhook secret derives from the id alone); crawl ingest reads the property every
 * time, since a rotated token must fail at once. Concurrent misses on one id share one query; a
 * failed query is not cached.
 */
export function cachedPropertyLookup(db: PrismaClient, ttlMs = 10_000, maxEntries = 10_000): PropertyLookup {
  if (ttlMs <= 0) return { find: (id) => findPropertyById(db, id) };
  const cache = new LRUCache<string, { property: Property | null }>({
    max: maxEntries,
    ttl: ttlMs,
    fetchMethod: async (id) => ({ property: await findPropertyById(db, id) }),
  });
  return {
    // Only real ids are cached: a stream of made-up ids must not flush the cache.
    find: async (id) => (isUuid(id) ? ((await cache.fetch(id))?.property ?? null) : null),
  };
}
