import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
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
 *
 * Each answer carries its version (the ETag) and keeps its compressed forms: both are worked out
 * once per entry, so a request served from the cache hashes and compresses nothing.
 */
export interface AnswerCache {
  answer(key: string, compute: () => Promise<unknown>): Promise<CachedAnswer | null>;
}

/** The content codings /v1 answers in, beside identity. */
export type ContentCoding = 'br' | 'gzip';

export interface CachedAnswer {
  /** The serialized JSON. */
  body: Buffer;
  /**
   * A weak ETag: a digest of the cache key (operation, properties in scope, normalised query and
   * range, id) and of the bytes. Weak, because a gzip or br copy is the same answer in other bytes.
   */
  etag: string;
  /** The body in a content coding, compressed the first time a client asks for it. */
  encoded(coding: ContentCoding): Promise<Buffer>;
  /** A list's `next_cursor` and `prev_cursor`, kept beside the bytes for the Link header. */
  cursors?: { next: string | null; prev: string | null };
}

function cursorsOf(body: unknown): CachedAnswer['cursors'] {
  if (typeof body !== 'object' || body === null || !('next_cursor' in body) || !('prev_cursor' in body)) {
    return undefined;
  }
  const { next_cursor: next, prev_cursor: prev } = body as Record<string, unknown>;
  return { next: typeof next === 'string' ? next : null, prev: typeof prev === 'string' ? prev : null };
}

interface Entry {
  /** null for a detail id that is not in scope (a 404, cached like any answer). */
  answer: CachedAnswer | null;
  computedAt: number;
}

/** The body in a content coding, as the cache keeps it (bench:read measures these). */
export const compressors: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  gzip: (body) => promisify(gzip)(body),
  // Quality 4, not zlib's 11: at 11 a 80 KB page costs tens of milliseconds for a few per cent fewer bytes.
  br: (body) =>
    promisify(brotliCompress)(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
};

/**
 * The version is a digest of what the entry is, worked out when it is filled, not a counter of
 * fills: the cache lives seconds and each replica has its own, so a counter would change the ETag
 * every few seconds and between replicas, and a client polling once a minute would never get a
 * 304. The digest stays the same while the rows do, on every replica.
 */
function cachedAnswer(key: string, body: Buffer, cursors: CachedAnswer['cursors']): CachedAnswer {
  const digest = createHash('sha1').update(key).update('\0').update(body).digest('base64url');
  const encodings = new Map<ContentCoding, Promise<Buffer>>();
  return {
    body,
    cursors,
    etag: `W/"${digest}"`,
    encoded(coding) {
      let encoding = encodings.get(coding);
      if (!encoding) {
        encoding = compressors[coding](body);
        encodings.set(coding, encoding);
        encoding.catch(() => encodings.delete(coding));
      }
      return encoding;
    },
  };
}

export function createAnswerCache(options: { ttlMs: number; maxBytes: number; now?: () => number }): AnswerCache {
  const now = options.now ?? Date.now;
  const serialize = async (key: string, compute: () => Promise<unknown>) => {
    const body = await compute();
    return body === null ? null : cachedAnswer(key, Buffer.from(JSON.stringify(body)), cursorsOf(body));
  };
  if (options.ttlMs <= 0) {
    return { answer: (key, compute) => serialize(key, compute) };
  }
  const entries = new LRUCache<string, Entry>({
    ttl: 2 * options.ttlMs,
    maxSize: options.maxBytes,
    // The body, and room for a gzip and a br copy of it (JSON compresses to well under a quarter).
    sizeCalculation: (entry, key) => Math.ceil((entry.answer?.body.length ?? 0) * 1.5) + key.length + 64,
  });
  const computing = new Map<string, Promise<CachedAnswer | null>>();
  const recompute = (key: string, compute: () => Promise<unknown>) => {
    let running = computing.get(key);
    if (!running) {
      running = serialize(key, compute)
        .then((answer) => {
          entries.set(key, { answer, computedAt: now() });
          return answer;
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
      if (entry && age < options.ttlMs) return entry.answer;
      if (entry && age < 2 * options.ttlMs) {
        // Stale but young enough: answer it, and let one request bring it up to date. A failed
        // refresh is tried again by the next request; past twice the TTL it reaches the caller.
        recompute(key, compute).catch(() => {});
        return entry.answer;
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
