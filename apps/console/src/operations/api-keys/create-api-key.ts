import { createApiKey } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/keys: the only answer that ever holds the key; the database keeps its hash. */
export const createApiKeyHandler = defineConsoleHandler(
  'createApiKey',
  ({ db }) =>
    async ({ team, session, body }) =>
      createApiKey(db, { teamId: team.teamId, createdById: session.user.id, ...body }),
);
