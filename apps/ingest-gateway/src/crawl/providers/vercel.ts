import { type CrawlLineFormat, NOT_A_REQUEST } from '../line-format.ts';
import { isRecord } from './record-values.ts';

const isEmpty = (record: Record<string, unknown>) => Object.keys(record).length === 0;

/** Request ids a batch remembers to count a request once; past it, repeats are counted again. */
const MAX_REMEMBERED_REQUESTS = 100_000;

/**
 * Vercel Drains (logs, JSON or NDJSON): a request is an entry with a `proxy` object, its user agent
 * an array of the header's values. Build and runtime output without `proxy` is not a request. A
 * function that logs several lines sends several entries carrying the same request's `proxy` and
 * `requestId`: the request is counted once per batch. Every entry is parsed (the user agent is an
 * array, never a flat string), so the format has no raw keys.
 */
export function vercelLines(): CrawlLineFormat {
  const seen = new Set<string>();
  return {
    rawKeys: null,
    toLine(record) {
      const proxy = record.proxy;
      // A Vercel entry without proxy (build or runtime output), or the empty object of a drain's
      // verification. Anything else is a request that lacks Vercel's fields.
      if (!isRecord(proxy)) return typeof record.source === 'string' || isEmpty(record) ? NOT_A_REQUEST : {};
      const requestId = typeof record.requestId === 'string' ? record.requestId : proxy.vercelId;
      if (typeof requestId === 'string' && requestId !== '') {
        if (seen.has(requestId)) return NOT_A_REQUEST;
        if (seen.size < MAX_REMEMBERED_REQUESTS) seen.add(requestId);
      }
      const agents = proxy.userAgent;
      return {
        timestamp: proxy.timestamp ?? record.timestamp,
        host: proxy.host,
        path: proxy.path,
        userAgent: Array.isArray(agents) ? agents.find((agent) => typeof agent === 'string' && agent !== '') : agents,
        // -1: served stale while revalidating in the background; the entry's own status is the answer's.
        statusCode: proxy.statusCode === -1 ? record.statusCode : proxy.statusCode,
        method: proxy.method,
        referer: proxy.referer,
        ip: proxy.clientIp,
      };
    },
    fieldNames: {
      timestamp: 'proxy.timestamp',
      host: 'proxy.host',
      path: 'proxy.path',
      userAgent: 'proxy.userAgent',
      statusCode: 'proxy.statusCode',
    },
  };
}
