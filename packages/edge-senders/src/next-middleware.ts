// Next.js middleware that sends every request to the crawl ingest endpoint under event.waitUntil.
// Web APIs only (a NextRequest is a Request, a NextFetchEvent has waitUntil), so it runs in the
// edge runtime and the Node one. Dependency-free: copy this file and batcher.ts into your app.
//
// The status: middleware runs before the page, so the page's status is not known to it. The line
// carries the status of a response the middleware itself answers with (a redirect, a 401 from an
// auth check, a 500 when it throws); when the request goes on to the page (no response, or
// NextResponse.next() or .rewrite(), whose status is not the page's), it carries `assumedStatus`,
// 200 by default. So a page that answers 404 or 500 is sent as 200: the service counts the visit,
// and its status is right for every request the middleware itself decides.
import { type CrawlLine, createWindowedSender, lineOfRequest, type SenderOptions } from './batcher';

/** What a NextFetchEvent gives middleware. */
export interface FetchEventLike {
  waitUntil(promise: Promise<unknown>): void;
}

// `void`: a Next.js middleware may end without returning anything (the request goes on).
// biome-ignore lint/suspicious/noConfusingVoidType: the return type of middleware that returns nothing
type MiddlewareResult = Response | null | undefined | void;
export type Middleware<R extends Request = Request> = (
  request: R,
  event: FetchEventLike,
) => MiddlewareResult | Promise<MiddlewareResult>;

export interface CrawlMiddlewareOptions extends SenderOptions {
  /** How long lines gather before a post (see createWindowedSender). Default 1,000 ms. */
  windowMs?: number;
  /** The status sent for a request that goes on to the page. Default 200. */
  assumedStatus?: number;
  /**
   * The client's address. Default: the last address of X-Forwarded-For, the one your own proxy
   * (or Vercel, or `next start`) added, which a client cannot forge; set this to read another
   * header your proxy sets (X-Real-IP, CF-Connecting-IP).
   */
  clientIp?: (request: Request) => string | null | undefined;
}

/** The address the nearest proxy saw: the last of X-Forwarded-For. */
export function lastForwardedFor(request: Request): string | undefined {
  const hops = request.headers.get('x-forwarded-for')?.split(',');
  return hops?.at(-1)?.trim() || undefined;
}

/** Whether a middleware's response hands the request on to the page, whose status is unknown here. */
const goesOnToThePage = (response: Response) =>
  response.headers.has('x-middleware-next') || response.headers.has('x-middleware-rewrite');

/**
 * Middleware that sends each request's line, around your own middleware if you have one:
 * `export const middleware = withCrawlLines({ ... }, yourMiddleware)`.
 */
export function withCrawlLines<R extends Request>(options: CrawlMiddlewareOptions, inner?: Middleware<R>) {
  const sender = createWindowedSender(options);
  const assumedStatus = options.assumedStatus ?? 200;
  const clientIp = options.clientIp ?? lastForwardedFor;

  function record(request: R, status: number, at: number, event: FetchEventLike) {
    try {
      const line: CrawlLine = lineOfRequest(request, status, at, clientIp(request) ?? null);
      sender.record(line, (promise) => event.waitUntil(promise));
    } catch {
      // Never into the response path.
    }
  }

  const middleware = async (request: R, event: FetchEventLike): Promise<MiddlewareResult> => {
    const at = Date.now();
    let response: MiddlewareResult;
    try {
      response = inner ? await inner(request, event) : undefined;
    } catch (error) {
      record(request, 500, at, event);
      throw error;
    }
    record(request, response && !goesOnToThePage(response) ? response.status : assumedStatus, at, event);
    return response;
  };
  return Object.assign(middleware, { stats: sender.stats });
}
