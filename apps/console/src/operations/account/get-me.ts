import { defineConsoleHandler } from '../define-console-handler.ts';
import { meOf } from './account-answers.ts';

/** GET /api/me: the person, their teams with roles, and the team this session acts on. */
export const getMeHandler = defineConsoleHandler(
  'getMe',
  ({ db }) =>
    async ({ session }) =>
      meOf(db, session),
);
