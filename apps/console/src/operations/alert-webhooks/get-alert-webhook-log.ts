import { alertWebhookLog, findAlertWebhook } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { consolePage } from '../list-page.ts';

/** GET /api/properties/{id}/alert-webhooks/{webhookId}/log: members read it too (it holds no secret). */
export const getAlertWebhookLogHandler = defineConsoleHandler(
  'getAlertWebhookLog',
  ({ db }) =>
    async ({ team, params, query }) => {
      const page = consolePage(query);
      const property = await findTeamProperty(db, team.teamId, params.id);
      return alertWebhookLog(db, (await findAlertWebhook(db, property.id, params.webhookId)).id, page);
    },
);
