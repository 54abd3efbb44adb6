// The shared core of the edge senders: one request as a crawl line, a bounded buffer of lines,
// and the post of a batch to the crawl ingest endpoint with a timeout. Dependency-free on purpose:
// it uses only what Cloudflare Workers, Next.js middleware (edge or Node) and Node 18+ all have
// (fetch, AbortSignal.timeout, CompressionStream, Blob, Response), so a site copies this file
// beside the one sender it needs. Nothing here throws: a sender must never break a response.

/** One request as the crawl ingest reads it (docs/log-shippers.md, Crawl ingest). */
export interface CrawlLine {
  timestamp: string;
  host: string;
  path: string;
  userAgent: string;
  statusCode: number;
  method?: string;
  referer?: string;
  /** The client's address: the service checks a crawler's against its operator's ranges, then drops it. */
  ip?: string;
  /** Web Bot Auth: the raw Signature, Signature-Input and Signature-Agent headers of a signed request. */
  signature?: string;
  signatureInput?: string;
  signatureAgent?: string;
}

/**
 * The longest value of each field the service keeps (its CRAWL_EVENT_CAPS). A longer value is sent
 * cut to one character over the cap, so the service decides as it would on the whole value (a
 * line over a cap is never kept) while no line grows past about 46 KB; a referer, which the
 * service cuts to its cap, is cut to the cap. An IP is never longer than 45 characters.
 */
export const LINE_CAPS = {
  host: 253,
  path: 8192,
  userAgent: 4096,
  referer: 8192,
  method: 16,
  ip: 64,
  signatureHeader: 8192,
} as const;

/** Everything from the first `?` or `#` on: never sent (the service would drop it, CRAWL-7). */
const withoutQuery = (text: string) => {
  const at = text.search(/[?#]/);
  return at === -1 ? text : text.slice(0, at);
};
const overCap = (text: string, cap: number) => (text.length > cap ? text.slice(0, cap + 1) : text);

export interface RequestFacts {
  /** When the request arrived, epoch ms. */
  at: number;
  host: string;
  /** The path as requested; its query string is dropped here. */
  path: string;
  method: string;
  statusCode: number;
  userAgent: string | null | undefined;
  referer?: string | null | undefined;
  ip?: string | null | undefined;
  signature?: string | null | undefined;
  signatureInput?: string | null | undefined;
  signatureAgent?: string | null | undefined;
}

/** The line for one request: query strings dropped, each field within its cap (see LINE_CAPS). */
export function crawlLine(facts: RequestFacts): CrawlLine {
  const line: CrawlLine = {
    timestamp: new Date(facts.at).toISOString(),
    host: overCap(facts.host, LINE_CAPS.host),
    path: overCap(withoutQuery(facts.path) || '/', LINE_CAPS.path),
    userAgent: overCap(facts.userAgent ?? '', LINE_CAPS.userAgent),
    statusCode: facts.statusCode,
    method: overCap(facts.method, LINE_CAPS.method),
  };
  const referer = facts.referer ? withoutQuery(facts.referer).slice(0, LINE_CAPS.referer) : '';
  if (referer) line.referer = referer;
  if (facts.ip) line.ip = overCap(facts.ip, LINE_CAPS.ip);
  // Forwarded only for a request that names a Signature-Agent, as the nginx and Apache recipes do.
  if (facts.signatureAgent) {
    line.signatureAgent = overCap(facts.signatureAgent, LINE_CAPS.signatureHeader);
    if (facts.signature) line.signature = overCap(facts.signature, LINE_CAPS.signatureHeader);
    if (facts.signatureInput) line.signatureInput = overCap(facts.signatureInput, LINE_CAPS.signatureHeader);
  }
  return line;
}

/** The line of a Web API request (Workers, Next.js), served with `statusCode`. */
export function lineOfRequest(request: Request, statusCode: number, at: number, ip: string | null): CrawlLine {
  const url = new URL(request.url);
  const header = (name: string) => request.headers.get(name);
  return crawlLine({
    at,
    host: url.host,
    path: url.pathname,
    method: request.method,
    statusCode,
    userAgent: header('user-agent'),
    referer: header('referer'),
    ip,
    signature: header('signature'),
    signatureInput: header('signature-input'),
    signatureAgent: header('signature-agent'),
  });
}

/**
 * Why lines were dropped: `full` the buffer held its maximum, `timeout` the service did not answer
 * within the post timeout, `unreachable` no connection, `refused` an answer other than 2xx (a wrong
 * token, a lapsed plan: see the answers in docs/log-shippers.md), `closed` a line after close().
 */
export type DropReason = 'full' | 'timeout' | 'unreachable' | 'refused' | 'closed';
export const DROP_REASONS: readonly DropReason[] = ['full', 'timeout', 'unreachable', 'refused', 'closed'];

export interface SenderOptions {
  /** The ingest gateway's address, e.g. `https://ingest.example.com`. */
  ingestUrl: string;
  propertyId: string;
  /** The property's crawl token: a secret, kept out of the code (env var, Worker secret). */
  token: string;
  /** Lines a post carries at most; a buffer that reaches it is posted at once. Default 500. */
  batchLines?: number;
  /** Characters of lines held at once, waiting or in flight; past it lines are dropped. Default 1,048,576. */
  maxBufferedChars?: number;
  /** How long a post may take before it is given up and its lines dropped. Default 5,000 ms. */
  postTimeoutMs?: number;
  /** Gzip the posts (CompressionStream). Default true. */
  gzip?: boolean;
  /** Told of every drop. Default: a console.warn at most once a minute, with the counts since the last one. */
  onDrop?: (reason: DropReason, lines: number, detail: string) => void;
}

export interface SenderStats {
  /** Lines held now, waiting or in flight, and their characters. */
  heldLines: number;
  heldChars: number;
  /** Lines of posts the service answered 2xx. */
  sentLines: number;
  posts: number;
  dropped: Record<DropReason, number>;
}

/** `{ingestUrl}/api/ingest/crawl/{propertyId}`; an ingestUrl that already is the endpoint is used as it is. */
export function crawlEndpoint(ingestUrl: string, propertyId: string): string {
  const base = ingestUrl.replace(/\/+$/, '');
  const path = `/api/ingest/crawl/${encodeURIComponent(propertyId)}`;
  return base.endsWith(path) ? base : `${base}${path}`;
}

/** A console.warn at most once every `everyMs`, carrying the drops counted since the last one. */
export function warnDropsEvery(everyMs = 60_000): (reason: DropReason, lines: number, detail: string) => void {
  const pending = new Map<DropReason, number>();
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastDetail = '';
  return (reason, lines, detail) => {
    pending.set(reason, (pending.get(reason) ?? 0) + lines);
    if (detail) lastDetail = detail;
    const now = Date.now();
    if (now - lastAt < everyMs) return;
    lastAt = now;
    const counts = [...pending].map(([r, n]) => `${n} ${r}`).join(', ');
    pending.clear();
    console.warn(`ai-ingest: dropped crawl lines (${counts})${lastDetail ? `; last: ${lastDetail}` : ''}`);
  };
}

/**
 * The bounded buffer and its posts. `add` never blocks and never throws; `flush` and `postBatch`
 * resolve whatever the service does, after at most the post timeout.
 */
export function createBatcher(options: SenderOptions) {
  const endpoint = crawlEndpoint(options.ingestUrl, options.propertyId);
  const batchLines = Math.max(1, options.batchLines ?? 500);
  const maxChars = options.maxBufferedChars ?? 1_048_576;
  const timeoutMs = options.postTimeoutMs ?? 5_000;
  const gzip = (options.gzip ?? true) && typeof CompressionStream === 'function';
  const onDrop = options.onDrop ?? warnDropsEvery();
  const waiting: string[] = [];
  let waitingChars = 0;
  const stats: SenderStats = {
    heldLines: 0,
    heldChars: 0,
    sentLines: 0,
    posts: 0,
    dropped: { full: 0, timeout: 0, unreachable: 0, refused: 0, closed: 0 },
  };

  function drop(reason: DropReason, lines: number, detail: string) {
    stats.dropped[reason] += lines;
    try {
      onDrop(reason, lines, detail);
    } catch {
      // A drop hook that throws must not reach the response either.
    }
  }

  /** Buffers a line; false when it was dropped. */
  function add(line: CrawlLine): boolean {
    const text = JSON.stringify(line);
    if (stats.heldChars + text.length > maxChars) {
      drop('full', 1, `buffer holds ${stats.heldLines} lines (${stats.heldChars} characters)`);
      return false;
    }
    waiting.push(text);
    waitingChars += text.length;
    stats.heldLines += 1;
    stats.heldChars += text.length;
    return true;
  }

  /** The next batch of waiting lines (at most batchLines), or nothing. */
  function take(): string[] | undefined {
    if (waiting.length === 0) return undefined;
    const batch = waiting.splice(0, batchLines);
    for (const text of batch) waitingChars -= text.length;
    return batch;
  }

  async function postBatch(batch: string[]): Promise<void> {
    const chars = batch.reduce((sum, text) => sum + text.length, 0);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      stats.posts += 1;
      const text = `${batch.join('\n')}\n`;
      const headers: Record<string, string> = {
        authorization: `Bearer ${options.token}`,
        'content-type': 'application/x-ndjson',
      };
      if (gzip) headers['content-encoding'] = 'gzip';
      const body = gzip ? await gzipped(text) : text;
      const answer = await fetch(endpoint, { method: 'POST', headers, body, signal });
      const said = (await answer.text()).slice(0, 300);
      if (answer.ok) stats.sentLines += batch.length;
      else drop('refused', batch.length, `${answer.status} ${said}`);
    } catch (error) {
      const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      drop(signal.aborted ? 'timeout' : 'unreachable', batch.length, detail);
    } finally {
      stats.heldLines -= batch.length;
      stats.heldChars -= chars;
    }
  }

  /** Posts every waiting line, a batch at a time, all at once. */
  async function flush(): Promise<void> {
    const posts: Promise<void>[] = [];
    for (let batch = take(); batch; batch = take()) posts.push(postBatch(batch));
    await Promise.all(posts);
  }

  return {
    add,
    take,
    postBatch,
    flush,
    /** Lines waiting to be posted (not in flight). */
    waitingLines: () => waiting.length,
    waitingChars: () => waitingChars,
    /** Whether a full batch is waiting. */
    hasFullBatch: () => waiting.length >= batchLines,
    /** Drops counted by the sender itself (after close), outside a post. */
    drop,
    stats: (): SenderStats => ({ ...stats, dropped: { ...stats.dropped } }),
  };
}

export type Batcher = ReturnType<typeof createBatcher>;

async function gzipped(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** What Workers' ExecutionContext and Next.js's NextFetchEvent both have. */
export type WaitUntil = (promise: Promise<unknown>) => void;

/**
 * A sender for runtimes that keep nothing alive between requests unless told (Workers, Next.js
 * middleware): lines go into a per-isolate buffer; the request that finds it empty keeps its
 * context alive with waitUntil for `windowMs`, then posts what gathered (its own line and those of
 * the requests that came meanwhile); a request that fills a batch posts it at once under its own
 * waitUntil. So every buffered line has a pending post, and each post runs in the context of a
 * request that is still alive, never on another request's I/O.
 */
export function createWindowedSender(options: SenderOptions & { windowMs?: number }) {
  const batcher = createBatcher(options);
  const windowMs = options.windowMs ?? 1_000;
  let windowOpen = false;

  function record(line: CrawlLine, waitUntil: WaitUntil): void {
    try {
      if (!batcher.add(line)) return;
      if (batcher.hasFullBatch()) {
        const batch = batcher.take();
        if (batch) waitUntil(batcher.postBatch(batch));
      }
      if (!windowOpen && batcher.waitingLines() > 0) {
        windowOpen = true;
        waitUntil(
          new Promise<void>((resolve) => setTimeout(resolve, windowMs)).then(() => {
            windowOpen = false;
            return batcher.flush();
          }),
        );
      }
    } catch {
      // Never into the response path.
    }
  }

  return { record, stats: batcher.stats };
}
