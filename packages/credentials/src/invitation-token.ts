import { createHash, randomBytes } from 'node:crypto';

/** Every invitation token starts with this, so a leaked one is recognisable in a scan. */
const INVITATION_TOKEN_PREFIX = 'vti_';
const INVITATION_TOKEN_PATTERN = /^vti_[A-Za-z0-9_-]{43}$/;

/** SHA-256 (hex) of an invitation token: what is stored and looked up. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A new invitation token (256 random bits) and the hash to store. The token goes into the email's
 * link and nowhere else: it is never stored, so a resend has to make a new one.
 */
export function generateInvitationToken(): { token: string; hash: string } {
  const token = `${INVITATION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashInvitationToken(token) };
}

/** Shape check before any lookup: a malformed token costs no query. */
export const isWellFormedInvitationToken = (token: string) => INVITATION_TOKEN_PATTERN.test(token);
