import { checkCredentials } from '@vt/accounts';
import { OperationError } from '@vt/contracts/console';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { signedIn } from './account-answers.ts';

/** POST /api/auth/sign-in: limited per email and per client before the password is even checked. */
export const signInHandler = defineConsoleHandler('signIn', (deps) => async ({ req, res, body }) => {
  const client = req.ip ?? 'unknown';
  const wait = await deps.signInLimiter.blockedFor(body.email, client);
  if (wait > 0) {
    res.set('Retry-After', String(wait));
    throw new OperationError('RATE_LIMIT_EXCEEDED', `Too many failed sign-ins; try again in ${wait} s.`);
  }
  const user = await checkCredentials(deps.db, body);
  if (!user) {
    await deps.signInLimiter.recordFailure(body.email, client);
    throw new OperationError('INVALID_CREDENTIALS', 'The email or the password is wrong.');
  }
  await deps.signInLimiter.recordSuccess(body.email);
  return signedIn(deps, req, res, user);
});
