import type { Request } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin (`scheme://host[:port]`) of a URL, or null when it is not one. */
function originOf(url: string | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  const { origin } = new URL(url);
  return origin === 'null' ? null : origin;
}

/**
 * CSRF protection by Origin check (decided over a double-submit token: browsers send Origin on
 * every cross-site write, and it needs no state). A write is refused when a browser could have
 * been tricked into it:
 * - it carries the session cookie (and no Authorization header), or it carries an Origin at all
 *   (sign-in from a foreign page, "login CSRF"); and
 * - its Origin (or, without one, its Referer) is neither the console's public origin nor the
 *   origin of the host it was sent to.
 * Bearer requests are never checked: a browser does not attach that header by itself. Bodies
 * must also be JSON, which no cross-site form can send without a CORS preflight.
 */
export function isCrossSiteWrite(req: Request, publicOrigin: string, hasSessionCookie: boolean): boolean {
  if (SAFE_METHODS.has(req.method) || req.headers.authorization !== undefined) return false;
  const claimed = req.headers.origin ?? (hasSessionCookie ? req.headers.referer : undefined);
  if (claimed === undefined) return hasSessionCookie;
  const origin = originOf(claimed);
  if (!origin) return true;
  const sameHost = req.headers.host !== undefined && origin === `${req.protocol}://${req.headers.host}`;
  return origin !== publicOrigin && !sameHost;
}
