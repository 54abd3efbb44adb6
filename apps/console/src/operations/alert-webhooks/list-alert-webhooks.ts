import { canManageTeam } from '@vt/accounts';
import { listAlertWebhooks } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/alert-webhooks: URLs and secrets for owners and admins only. */
export const listAlertWebhooksHandler = defineConsoleHandler(
  'listAlertWebhooks',
  ({ db, alertWebhooks }) =>
    async ({ team, params }) =>
      listAlertWebhooks(db, (await findTeamProperty(db, team.teamId, params.id)).id, {
        showSecrets: canManageTeam(team.role),
        signingKey: alertWebhooks.signingKey,
      }),
);
