import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

type Helmet = ReturnType<typeof helmet>;

/** What an app may add to the shared policy. */
export interface SecurityHeaderOptions {
  /**
   * More sources for `img-src` than helmet's `'self' data:`: the console adds `https:`, so a
   * team's logo (an https URL its owners set) shows in the header. Scripts, styles and
   * connections stay same-origin.
   */
  extraImageSources?: readonly string[];
}

/** helmet as configured for every app: see securityHeaders. */
export function configuredHelmet(options: SecurityHeaderOptions = {}): Helmet {
  const extra = options.extraImageSources ?? [];
  return helmet({
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: null,
        ...(extra.length ? { imgSrc: ["'self'", 'data:', ...extra] } : {}),
      },
    },
  });
}

/**
 * Security headers for every answer of every HTTP app: helmet's defaults (nosniff, frame and
 * referrer policy, HSTS, a same-origin content security policy the console UI and the API
 * reference pages work under) less `upgrade-insecure-requests`, which would break a deployment
 * reached over plain http on its network (`http://10.0.0.5:3002`): its assets would be asked for
 * over https.
 *
 * With these options helmet's headers are the same for every request (no nonce, nothing read from
 * the request), so helmet runs once, at start, and each answer gets the headers it set. Run per
 * request, its eleven middlewares were 7 % of the gateway's CPU per lead (bench:webhook profile).
 * A test checks the headers against helmet's own on a real answer.
 */
export function securityHeaders(options: SecurityHeaderOptions = {}): RequestHandler {
  const headers = headersSetBy(configuredHelmet(options));
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * The headers a middleware sets when it answers nothing itself and reads nothing of the request:
 * run once on a request and an answer of node's own that go nowhere.
 */
function headersSetBy(middleware: Helmet): [string, string][] {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  let passedOn = false;
  middleware(req, res, (err?: unknown) => {
    if (err) throw err;
    passedOn = true;
  });
  if (!passedOn) throw new Error('securityHeaders: helmet did not pass the request on at once');
  return Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]);
}
