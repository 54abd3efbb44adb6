import type { PrismaClient, Property } from '@vt/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The property with this id, or null when there is none or the id is not a UUID (Postgres would refuse it). */
export async function findPropertyById(db: Pick<PrismaClient, 'property'>, id: string): Promise<Property | null> {
  return UUID.test(id) ? db.property.findUnique({ where: { id } }) : null;
}

export interface PropertyLookup {
  find: (id: string) => Promise<Property | null>;
}

/**
 * Properties by id for the lead webhook, cached for a few seconds: a sender posting leads all day
 * should not cost a database round trip per lead. Only for facts that may lag by the TTL (the
 * webhook secret derives from the id alone); crawl ingest reads the property every time, since a
 * rotated token must fail at once.
 */
export function cachedPropertyLookup(db: PrismaClient, ttlMs = 10_000, maxEntries = 10_000): PropertyLookup {
  const cache = new Map<string, { property: Property | null; expires: number }>();
  return {
    find: async (id) => {
      // Only real ids are cached: a stream of made-up ids must not flush the cache.
      if (!UUID.test(id)) return null;
      const hit = cache.get(id);
      if (hit && hit.expires > Date.now()) return hit.property;
      const property = await findPropertyById(db, id);
      if (cache.size >= maxEntries) cache.clear();
      cache.set(id, { property, expires: Date.now() + ttlMs });
      return property;
    },
  };
}
