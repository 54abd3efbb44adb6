import { signUp } from '@vt/accounts';
import { OperationError } from '@vt/contracts/console';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { signedIn } from './account-answers.ts';

/**
 * POST /api/auth/sign-up: the account, and a session started at once. EMAIL_TAKEN tells that an
 * account exists, so each one counts as a failed sign-in of the address and an address over
 * that limit may not sign up either: finding accounts this way costs what guessing does.
 */
export const signUpHandler = defineConsoleHandler('signUp', (deps) => async ({ req, res, body }) => {
  const client = req.ip ?? 'unknown';
  const wait = await deps.signInLimiter.clientBlockedFor(client);
  if (wait > 0) {
    res.set('Retry-After', String(wait));
    throw new OperationError(
      'RATE_LIMIT_EXCEEDED',
      `Too many failed attempts from this address; try again in ${wait} s.`,
    );
  }
  try {
    return await signedIn(deps, req, res, await signUp(deps.db, body));
  } catch (err) {
    if (err instanceof OperationError && err.code === 'EMAIL_TAKEN')
      await deps.signInLimiter.recordClientFailure(client);
    throw err;
  }
});
