import { listApiKeys } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/keys: members see the list too, since it never holds a key. */
export const listApiKeysHandler = defineConsoleHandler('listApiKeys', ({ db }) => async ({ team }) => ({
  keys: await listApiKeys(db, team.teamId),
}));
