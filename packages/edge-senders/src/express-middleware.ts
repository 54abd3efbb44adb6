// Express (or any Node `(req, res, next)` stack: Connect, node:http) middleware that sends every
// request the app serves to the crawl ingest endpoint, in batches, off the response path.
// Dependency-free: copy this file and batcher.ts into your app (see the package's README).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CrawlLine, crawlLine, createBatcher, type SenderOptions, type SenderStats } from './batcher';

/** What Express adds to a Node request that the line reads, when it is there. */
type NodeRequest = IncomingMessage & { originalUrl?: string; ip?: string };

export interface CrawlIngestMiddlewareOptions extends SenderOptions {
  /** A non-empty buffer is posted at least this often. Default 2,000 ms. */
  flushIntervalMs?: number;
  /** The site's host as the property knows it; default the request's Host header. */
  host?: string;
  /**
   * The client's address. Default `req.ip` (Express, which follows its `trust proxy` setting) or
   * the socket's peer address. Behind a proxy, set Express's `trust proxy` or read your proxy's header.
   */
  clientIp?: (req: NodeRequest) => string | undefined;
}

export interface CrawlIngestMiddleware {
  (req: NodeRequest, res: ServerResponse, next: (error?: unknown) => void): void;
  /** Stops the timer, posts what is buffered and waits for every post (each within the post timeout). Idempotent. */
  close(): Promise<void>;
  stats(): SenderStats;
}

export function crawlIngestMiddleware(options: CrawlIngestMiddlewareOptions): CrawlIngestMiddleware {
  const batcher = createBatcher(options);
  const inFlight = new Set<Promise<void>>();
  let closing: Promise<void> | undefined;

  const track = (post: Promise<void>) => {
    inFlight.add(post);
    void post.finally(() => inFlight.delete(post));
  };
  // unref: the timer never keeps the process alive; close() posts what it would have.
  const timer = setInterval(() => track(batcher.flush()), options.flushIntervalMs ?? 2_000);
  timer.unref();

  function record(line: CrawlLine) {
    if (closing) {
      batcher.drop('closed', 1, 'a request finished after close()');
      return;
    }
    if (!batcher.add(line)) return;
    if (batcher.hasFullBatch()) {
      const batch = batcher.take();
      if (batch) track(batcher.postBatch(batch));
    }
  }

  const middleware = ((req, res, next) => {
    const at = Date.now();
    try {
      res.once('finish', () => {
        try {
          record(lineOf(req, res.statusCode, at, options));
        } catch {
          // Never into the response path.
        }
      });
    } catch {
      // A response object without events is served all the same.
    }
    next();
  }) as CrawlIngestMiddleware;

  middleware.close = () => {
    closing ??= (async () => {
      clearInterval(timer);
      track(batcher.flush());
      while (inFlight.size > 0) await Promise.all(inFlight);
    })();
    return closing;
  };
  middleware.stats = batcher.stats;
  return middleware;
}

function lineOf(req: NodeRequest, statusCode: number, at: number, options: CrawlIngestMiddlewareOptions): CrawlLine {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return crawlLine({
    at,
    host: options.host ?? header('host') ?? header(':authority') ?? '',
    path: req.originalUrl ?? req.url ?? '/',
    method: req.method ?? 'GET',
    statusCode,
    userAgent: header('user-agent'),
    referer: header('referer'),
    ip: options.clientIp ? options.clientIp(req) : (req.ip ?? req.socket?.remoteAddress),
    signature: header('signature'),
    signatureInput: header('signature-input'),
    signatureAgent: header('signature-agent'),
  });
}
