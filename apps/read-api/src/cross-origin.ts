import type { RequestHandler } from 'express';

/** How long a browser may reuse a preflight's answer, in seconds (Chrome caps it at two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** What a page from an allowed origin may send beyond the CORS-safelisted headers. */
const ALLOWED_REQUEST_HEADERS = 'Authorization, If-None-Match, X-Request-Id';

/** What such a page's script may read of an answer beyond the safelisted headers. */
const EXPOSED_HEADERS = [
  'ETag',
  'Link',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
].join(', ');

/**
 * CORS for /v1, decided per deployment: pages from the `allowedOrigins` (READ_API_CORS_ORIGINS)
 * may call it from a browser; every other origin gets no `Access-Control-*` header, so the browser
 * keeps the answer from the page. With no origin listed (the default) nothing here runs at all.
 *
 * Why off by default: an API key is a secret that reads a team's data. A key shipped in a page's
 * script is a key published; a browser app should call its own backend, which holds the key. An
 * operator who lists an origin accepts that (an internal dashboard behind a login, say).
 *
 * Every answer to an allowed origin says so, errors included, so its script can read the
 * `{error}` envelope. A preflight (OPTIONS with `Access-Control-Request-Method`) is still answered
 * by the router (204 with `Allow`, READ-3); this adds the methods, headers and max age. No
 * `Access-Control-Allow-Credentials`: /v1 reads no cookie, only the bearer key.
 */
export function crossOriginReads(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    if (allowed.size === 0) return next();
    // The answer depends on Origin whenever CORS is on, allowed or not: a cache must keep them apart.
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    res.set('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.set({
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      });
    } else {
      res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    next();
  };
}
