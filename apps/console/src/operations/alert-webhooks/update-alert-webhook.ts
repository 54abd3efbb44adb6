import { alertWebhookAnswer, findAlertWebhook, updateAlertWebhook } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** PATCH /api/properties/{id}/alert-webhooks/{webhookId}: a new URL is checked as a new webhook's is. */
export const updateAlertWebhookHandler = defineConsoleHandler(
  'updateAlertWebhook',
  ({ db, alertWebhooks }) =>
    async ({ team, params, body }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      const destination = await findAlertWebhook(db, property.id, params.webhookId);
      const updated = await updateAlertWebhook(db, alertWebhooks, destination, body);
      return alertWebhookAnswer(db, updated, alertWebhooks.signingKey);
    },
);
