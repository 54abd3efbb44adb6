import { createApiKey, listApiKeys, revokeApiKey } from '@vt/accounts';
import type { ConsoleHandlers } from '../http/console-operation.ts';
import type { HandlerDeps } from './handler-deps.ts';

/** Read API keys: members see the list (never a key), owners and admins create and revoke. */
export function apiKeyHandlers({ db, now }: HandlerDeps) {
  return {
    listApiKeys: async ({ team }) => ({ keys: await listApiKeys(db, team.teamId) }),
    createApiKey: async ({ team, session, body }) =>
      createApiKey(db, { teamId: team.teamId, createdById: session.user.id, ...body }),
    revokeApiKey: async ({ team, params }) => ({
      key: await revokeApiKey(db, { teamId: team.teamId, keyId: params.id, now: now() }),
    }),
  } satisfies Partial<ConsoleHandlers>;
}
