import { revokeApiKey } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/**
 * DELETE /api/keys/{id}: every read API replica refuses the key from its next request on. The
 * announcement follows the committed revocation, and follows a repeat too: a revoke whose
 * announcement failed (answered 500) is made good by trying again.
 */
export const revokeApiKeyHandler = defineConsoleHandler(
  'revokeApiKey',
  ({ db, now, announceKeyRevocation }) =>
    async ({ team, params }) => {
      const key = await revokeApiKey(db, { teamId: team.teamId, keyId: params.id, now: now() });
      await announceKeyRevocation();
      return { key };
    },
);
