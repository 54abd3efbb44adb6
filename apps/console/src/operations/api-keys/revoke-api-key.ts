import { revokeApiKey } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** DELETE /api/keys/{id}: the read API stops taking it within its key cache lifetime. */
export const revokeApiKeyHandler = defineConsoleHandler('revokeApiKey', ({ db, now }) => async ({ team, params }) => ({
  key: await revokeApiKey(db, { teamId: team.teamId, keyId: params.id, now: now() }),
}));
