import { listApiKeys } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { consolePage } from '../list-page.ts';

/** GET /api/keys: members see the list too, since it never holds a key. */
export const listApiKeysHandler = defineConsoleHandler(
  'listApiKeys',
  ({ db }) =>
    async ({ team, query }) =>
      listApiKeys(db, team.teamId, consolePage(query)),
);
