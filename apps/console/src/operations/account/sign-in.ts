import { checkCredentials, passwordVersionOf } from '@vt/accounts';
import { OperationError } from '@vt/contracts/console';
import { deviceCookieOf, setDeviceCookie } from '../../auth/session-cookie.ts';
import type { SignInAttempt } from '../../auth/sign-in-limiter.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { signedIn } from './account-answers.ts';

/**
 * POST /api/auth/sign-in: limited per email and address, per address and per account before the
 * password is even checked (sign-in-limiter.ts); a success marks the browser a known device of
 * the account, which the account's ceiling then lets through.
 */
export const signInHandler = defineConsoleHandler('signIn', (deps) => async ({ req, res, body }) => {
  const device = deviceCookieOf(req);
  const attempt: SignInAttempt = {
    email: body.email,
    client: req.ip ?? 'unknown',
    passwordVersion: await passwordVersionOf(deps.db, body.email),
    ...((await deps.knownDevices.isKnownFor(device, body.email)) ? { knownDevice: device } : {}),
  };
  const wait = await deps.signInLimiter.blockedFor(attempt);
  if (wait > 0) {
    res.set('Retry-After', String(wait));
    throw new OperationError(
      'RATE_LIMIT_EXCEEDED',
      `Too many failed sign-ins; try again in ${wait} s. A browser you have signed in with before is let through sooner.`,
    );
  }
  const user = await checkCredentials(deps.db, body);
  if (!user) {
    await deps.signInLimiter.recordFailure(attempt);
    throw new OperationError('INVALID_CREDENTIALS', 'The email or the password is wrong.');
  }
  await deps.signInLimiter.recordSuccess(attempt);
  const remembered = await deps.knownDevices.remember(device, body.email);
  if (remembered) setDeviceCookie(req, res, remembered, deps.knownDevices.ttlSeconds);
  return signedIn(deps, req, res, user);
});
