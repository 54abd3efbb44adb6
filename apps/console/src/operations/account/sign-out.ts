import { endSession } from '@vt/accounts';
import { clearSessionCookie } from '../../auth/session-cookie.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/auth/sign-out: the session is revoked, not only its cookie cleared. */
export const signOutHandler = defineConsoleHandler('signOut', ({ db }) => async ({ req, res, session }) => {
  await endSession(db, session.id);
  clearSessionCookie(req, res);
  return undefined;
});
