import { canManageTeam } from '@vt/accounts';
import { findTeamProperty, webhookSetup } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/webhook: the signing secret for owners and admins only (TEAM-5). */
export const getWebhookSetupHandler = defineConsoleHandler(
  'getWebhookSetup',
  ({ db, connection, now }) =>
    async ({ team, params }) =>
      webhookSetup(db, connection, await findTeamProperty(db, team.teamId, params.id), {
        showSecrets: canManageTeam(team.role),
        now: now(),
      }),
);
