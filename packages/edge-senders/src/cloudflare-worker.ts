// A Cloudflare Worker in front of the site: it passes each request to the origin, answers with the
// origin's response, and sends the request's line to the crawl ingest endpoint under
// ctx.waitUntil, after the response. Dependency-free: wrangler bundles this file and batcher.ts.
//
// Batching: a Worker's isolate serves many requests but may be evicted at any time, and nothing
// runs after a request unless its waitUntil keeps it alive. So lines gather in a per-isolate buffer
// for at most WINDOW_MS (the first request of a window keeps its context alive that long, then
// posts what gathered), or until BATCH_LINES are buffered; see createWindowedSender in batcher.ts.
import { createWindowedSender, lineOfRequest } from './batcher';

export interface CrawlWorkerEnv {
  /** The ingest gateway, e.g. `https://ingest.example.com` (a var in wrangler.toml). */
  INGEST_URL?: string;
  PROPERTY_ID?: string;
  /** The property's crawl token: `wrangler secret put CRAWL_TOKEN`. */
  CRAWL_TOKEN?: string;
  /** Optional numbers, as strings (wrangler vars): the batch window, lines a post, buffer and timeout. */
  WINDOW_MS?: string;
  BATCH_LINES?: string;
  MAX_BUFFERED_CHARS?: string;
  POST_TIMEOUT_MS?: string;
  /** `false`: post plain NDJSON, to spare the gzip's CPU time. */
  GZIP?: string;
  /** `false`: never send the client's address (every crawler is then counted unverifiable). */
  SEND_IP?: string;
}

/** The part of a Worker's ExecutionContext this uses. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

type Sender = ReturnType<typeof createWindowedSender>;
let sender: Sender | undefined;
let senderKey = '';
let warnedUnconfigured = false;

/** One sender per isolate, made from the env of the first request (a Worker sees env only there). */
function senderFor(env: CrawlWorkerEnv): Sender | undefined {
  const { INGEST_URL, PROPERTY_ID, CRAWL_TOKEN } = env;
  if (!INGEST_URL || !PROPERTY_ID || !CRAWL_TOKEN) {
    if (!warnedUnconfigured)
      console.warn('ai-ingest: INGEST_URL, PROPERTY_ID or CRAWL_TOKEN is not set; nothing is sent');
    warnedUnconfigured = true;
    return undefined;
  }
  const key = `${INGEST_URL} ${PROPERTY_ID} ${CRAWL_TOKEN}`;
  if (!sender || key !== senderKey) {
    const number = (text: string | undefined) => (text && Number.isFinite(Number(text)) ? Number(text) : undefined);
    sender = createWindowedSender({
      ingestUrl: INGEST_URL,
      propertyId: PROPERTY_ID,
      token: CRAWL_TOKEN,
      windowMs: number(env.WINDOW_MS),
      batchLines: number(env.BATCH_LINES),
      maxBufferedChars: number(env.MAX_BUFFERED_CHARS),
      postTimeoutMs: number(env.POST_TIMEOUT_MS),
      gzip: env.GZIP !== 'false',
    });
    senderKey = key;
  }
  return sender;
}

function record(request: Request, status: number, at: number, env: CrawlWorkerEnv, ctx: WorkerContext) {
  try {
    const ip = env.SEND_IP === 'false' ? null : request.headers.get('cf-connecting-ip');
    const line = lineOfRequest(request, status, at, ip);
    senderFor(env)?.record(line, (promise) => ctx.waitUntil(promise));
  } catch {
    // Never into the response path.
  }
}

export default {
  async fetch(request: Request, env: CrawlWorkerEnv, ctx: WorkerContext): Promise<Response> {
    const at = Date.now();
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      // The origin did not answer: Cloudflare shows its own 5xx page; the line says 502.
      record(request, 502, at, env, ctx);
      throw error;
    }
    record(request, response.status, at, env, ctx);
    return response;
  },
};
