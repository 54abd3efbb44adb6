import { signUp } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { signedIn } from './account-answers.ts';

/** POST /api/auth/sign-up: the account, and a session started at once. */
export const signUpHandler = defineConsoleHandler(
  'signUp',
  (deps) =>
    async ({ req, res, body }) =>
      signedIn(deps, req, res, await signUp(deps.db, body)),
);
