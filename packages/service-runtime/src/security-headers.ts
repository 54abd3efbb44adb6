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

/**
 * Browser features no page of ours uses, turned off for our pages and anything they frame, so a
 * script that got in cannot reach a camera, a microphone or the person's location. Copying (the
 * setup dialogs' copy buttons) stays allowed to our own origin. Only features Chromium knows are
 * named: an unknown one is a console warning on every page.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'clipboard-read=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** helmet as configured for every app: see securityHeaders. */
export function configuredHelmet(options: SecurityHeaderOptions = {}): Helmet {
  const extra = options.extraImageSources ?? [];
  return helmet({
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: null,
        // helmet's default is `'self' https: 'unsafe-inline'`: any https stylesheet and any inline
        // style, so injected markup could restyle the page (overlay a fake sign-in form). The console
        // and the API reference load styles only from their own files; React sets `style` props
        // through the CSSOM, which style-src does not govern.
        styleSrc: ["'self'"],
        ...(extra.length ? { imgSrc: ["'self'", 'data:', ...extra] } : {}),
      },
    },
  });
}

/**
 * Security headers for every answer of every HTTP app: helmet's defaults (nosniff, frame and
 * referrer policy, HSTS, a same-origin content security policy the console UI and the API
 * reference pages work under, styles included) plus a Permissions-Policy, less
 * `upgrade-insecure-requests`, which would break a deployment
 * reached over plain http on its network (`http://10.0.0.5:3002`): its assets would be asked for
 * over https.
 *
 * With these options helmet's headers are the same for every request (no nonce, nothing read from
 * the request), so helmet runs once, at start, and each answer gets the headers it set. Run per
 * request, its eleven middlewares were 7 % of the gateway's CPU per lead (bench:webhook profile).
 * A test checks the headers against helmet's own on a real answer.
 */
export function securityHeaders(options: SecurityHeaderOptions = {}): RequestHandler {
  const headers: [string, string][] = [
    ...headersSetBy(configuredHelmet(options)),
    ['Permissions-Policy', PERMISSIONS_POLICY],
  ];
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
