import { createHash, randomBytes } from 'node:crypto';

/** Every console session token starts with this, so a leaked one is recognisable in a scan. */
const SESSION_TOKEN_PREFIX = 'vts_';
const SESSION_TOKEN_PATTERN = /^vts_[A-Za-z0-9_-]{43}$/;

/** SHA-256 (hex) of a session token: what is stored and looked up. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new session token (256 random bits) and the hash to store; the token itself is never stored. */
export function generateSessionToken(): { token: string; hash: string } {
  const token = `${SESSION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashSessionToken(token) };
}

/** Shape check before any lookup: a malformed token costs no query. */
export const isWellFormedSessionToken = (token: string) => SESSION_TOKEN_PATTERN.test(token);
