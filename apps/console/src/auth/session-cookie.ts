import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';

const SESSION_COOKIE = 'vt_session';

/** The session token a browser sent, if any. */
export function sessionCookieOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[SESSION_COOKIE] : undefined;
}

/**
 * Sets the session cookie: httpOnly (scripts on the page cannot read it), SameSite=Lax (other
 * sites' subrequests do not carry it), Secure when the request came over TLS (directly or through
 * a trusted proxy), for as long as the session lives.
 */
export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: '/',
      expires: expiresAt,
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: '/',
      maxAge: 0,
    }),
  );
}
