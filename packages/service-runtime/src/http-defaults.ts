import { randomUUID } from 'node:crypto';
import { isAcceptableRequestId, REQUEST_ID_HEADER } from '@vt/contracts';
import type { Logger } from '@vt/logger';
import type { Express, RequestHandler, Response } from 'express';
import { type SecurityHeaderOptions, securityHeaders } from './security-headers.ts';

/** Probes come every few seconds from load balancers and Prometheus: their lines are debug. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * What every HTTP app of the service does to every request, first: no `X-Powered-By`, the security
 * headers, a request id, no 304 answers. Each app's `build` calls it on its fresh express app.
 */
export function applyHttpDefaults(app: Express, options: { logger: Logger } & SecurityHeaderOptions): void {
  app.disable('x-powered-by');
  app.use(securityHeaders(options));
  app.use(requestIds(options));
  answerWithoutValidators(app);
}

/** The request id of an answer (`X-Request-Id`), for log lines about the request. */
export function requestIdOf(res: Response): string | undefined {
  const id = res.locals.requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Gives each request an id: the caller's `X-Request-Id` when it is acceptable (contracts'
 * `isAcceptableRequestId`), else a fresh UUID. The answer carries it in `X-Request-Id`, whatever
 * its status, and one log line per answer names it with the method, path (never the query: a crawl
 * token may ride there), status and duration: 5xx as error, 4xx as warn, the rest as info, probes
 * as debug. `requestIdOf(res)` hands it to the app's own log lines.
 */
export function requestIds(options: { logger: Logger }): RequestHandler {
  const { logger } = options;
  return (req, res, next) => {
    const sent = req.headers['x-request-id'];
    const requestId = typeof sent === 'string' && isAcceptableRequestId(sent) ? sent : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const startedAt = performance.now();
    res.once('close', () => {
      const url = req.originalUrl;
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const status = res.statusCode;
      const level = PROBE_PATHS.has(path) ? 'debug' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          requestId,
          method: req.method,
          path,
          status,
          durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
          // The client went away before the whole answer was written.
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'request answered',
      );
    });
    next();
  };
}

/**
 * The service's answers carry no validators (no ETag, no Last-Modified), yet express' `req.fresh`
 * calls a request with `If-None-Match: *` fresh and turns its 200 into an empty 304: no body, no
 * budget headers (READ-17), for a representation the client cannot hold, since no answer ever
 * gave it a validator to hold it by. Here conditional headers are ignored and a GET is always
 * answered in full. (RFC 9110 would have `If-None-Match: *` on an existing resource answered 304;
 * the wildcard is meant for unsafe methods, and this service has none that take it.) Files keep
 * their validators and 304s: express.static's assets their ETag and Last-Modified, a file sent
 * with res.sendFile (the console UI's index.html) its Last-Modified.
 */
export function answerWithoutValidators(app: Express): void {
  app.set('etag', false);
  Object.defineProperty(app.request, 'fresh', { configurable: true, enumerable: true, get: () => false });
}
