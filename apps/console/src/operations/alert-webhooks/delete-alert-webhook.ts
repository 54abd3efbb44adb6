import { deleteAlertWebhook, findAlertWebhook } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** DELETE /api/properties/{id}/alert-webhooks/{webhookId}: its pending deliveries and log go with it. */
export const deleteAlertWebhookHandler = defineConsoleHandler(
  'deleteAlertWebhook',
  ({ db }) =>
    async ({ team, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      await deleteAlertWebhook(db, await findAlertWebhook(db, property.id, params.webhookId));
      return undefined;
    },
);
