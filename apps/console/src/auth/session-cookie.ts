import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';

/**
 * A cookie's name as this request uses it: over TLS (directly or through a trusted proxy) with the
 * `__Host-` prefix, which browsers accept only from a secure origin, with `Secure`, `Path=/` and
 * no `Domain`, so a sibling subdomain or a plain-http answer on the network cannot plant or
 * overwrite it ("cookie tossing"). Over plain http (a deployment on its own network) browsers
 * refuse the prefix, so the plain name is used. Each mode reads only its own name: over TLS a
 * plain-named cookie, which anyone on the path could have set, is ignored.
 */
export function cookieNameFor(req: Request, name: string): string {
  return req.secure ? `__Host-${name}` : name;
}

const SESSION_COOKIE = 'vt_session';
const DEVICE_COOKIE = 'vt_device';

function cookieOf(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[cookieNameFor(req, name)] : undefined;
}

/**
 * httpOnly (scripts on the page cannot read it), SameSite=Lax (other sites' subrequests do not
 * carry it), Secure and `__Host-` named over TLS, Path=/ and no Domain.
 */
function setCookie(
  req: Request,
  res: Response,
  name: string,
  value: string,
  lifetime: { expires: Date } | { maxAge: number },
) {
  res.append(
    'Set-Cookie',
    stringifySetCookie(cookieNameFor(req, name), value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: '/',
      ...lifetime,
    }),
  );
}

/** The session token a browser sent, if any. */
export const sessionCookieOf = (req: Request): string | undefined => cookieOf(req, SESSION_COOKIE);

/** Sets the session cookie for as long as the session lives. */
export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  setCookie(req, res, SESSION_COOKIE, token, { expires: expiresAt });
}

export function clearSessionCookie(req: Request, res: Response): void {
  setCookie(req, res, SESSION_COOKIE, '', { maxAge: 0 });
}

/** The known-device token a browser sent, if any (see known-devices.ts). */
export const deviceCookieOf = (req: Request): string | undefined => cookieOf(req, DEVICE_COOKIE);

/** Marks this browser as one that signed in to an account; kept across sign-outs. */
export function setDeviceCookie(req: Request, res: Response, token: string, maxAgeSeconds: number): void {
  setCookie(req, res, DEVICE_COOKIE, token, { maxAge: maxAgeSeconds });
}
