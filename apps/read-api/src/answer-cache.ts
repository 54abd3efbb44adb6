import { LRUCache } from 'lru-cache';

/**
 * Serialized /v1 answers, reused by every request that would read exactly the same rows: same
 * operation, same set of properties, same parameters, same day range. Keys with the same scope
 * share entries; keys with different scopes never do, because the property set is part of the
 * cache key. Concurrent misses on one entry run the query once.
 *
 * An answer is fresh for `ttlMs`. For as long again it is still served while one request
 * recomputes it in the background (stale-while-revalidate), so a popular page never makes a
 * crowd of requests wait for its recount; older than twice `ttlMs` it is never served.
 *
 * Why: the data behind /v1 changes when answers are collected (daily) or a task is edited, while
 * BI tools and scripts poll the same pages; without it every poll recounts the whole range.
 */
export interface AnswerCache {
  answer(key: string, compute: () => Promise<unknown>): Promise<Buffer | null>;
}

interface Entry {
  /** The serialized answer; null for a detail id that is not in scope (a 404, cached like any answer). */
  body: Buffer | null;
  computedAt: number;
}

export function createAnswerCache(options: { ttlMs: number; maxBytes: number; now?: () => number }): AnswerCache {
  const now = options.now ?? Date.now;
  const serialize = async (compute: () => Promise<unknown>) => {
    const body = await compute();
    return body === null ? null : Buffer.from(JSON.stringify(body));
  };
  if (options.ttlMs <= 0) {
    return { answer: (_key, compute) => serialize(compute) };
  }
  const entries = new LRUCache<string, Entry>({
    ttl: 2 * options.ttlMs,
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) => (entry.body?.length ?? 0) + key.length + 64,
  });
  const computing = new Map<string, Promise<Buffer | null>>();
  const recompute = (key: string, compute: () => Promise<unknown>) => {
    let running = computing.get(key);
    if (!running) {
      running = serialize(compute)
        .then((body) => {
          entries.set(key, { body, computedAt: now() });
          return body;
        })
        .finally(() => computing.delete(key));
      computing.set(key, running);
    }
    return running;
  };
  return {
    async answer(key, compute) {
      const entry = entries.get(key);
      const age = entry ? now() - entry.computedAt : Number.POSITIVE_INFINITY;
      if (entry && age < options.ttlMs) return entry.body;
      if (entry && age < 2 * options.ttlMs) {
        // Stale but young enough: answer it, and let one request bring it up to date. A failed
        // refresh is tried again by the next request; past twice the TTL it reaches the caller.
        recompute(key, compute).catch(() => {});
        return entry.body;
      }
      return recompute(key, compute);
    },
  };
}

/** Everything the rows of an answer depend on, in a stable order; JSON, so no value can forge a separator. */
export function answerCacheKey(parts: {
  operationId: string;
  propertyIds: readonly string[];
  query: Record<string, unknown>;
  range: { from: string; to: string };
  id?: string;
}): string {
  const query = Object.keys(parts.query)
    .sort()
    .map((name) => [name, parts.query[name]]);
  return JSON.stringify([
    parts.operationId,
    parts.propertyIds,
    query,
    parts.range.from,
    parts.range.to,
    parts.id ?? null,
  ]);
}
