import { canManageTeam } from '@vt/accounts';
import { listAlertWebhooks } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { consolePage } from '../list-page.ts';

/** GET /api/properties/{id}/alert-webhooks: URLs and secrets for owners and admins only. */
export const listAlertWebhooksHandler = defineConsoleHandler('listAlertWebhooks', ({ db, alertWebhooks }) => {
  return async ({ team, params, query }) => {
    const page = consolePage(query);
    const property = await findTeamProperty(db, team.teamId, params.id);
    const options = { showSecrets: canManageTeam(team.role), signingKey: alertWebhooks.signingKey };
    return listAlertWebhooks(db, property.id, options, page);
  };
});
