import { alertWebhookAnswer, findAlertWebhook, rotateAlertWebhookSecret } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/alert-webhooks/{webhookId}/rotate-secret: the answer shows the new secret. */
export const rotateAlertWebhookSecretHandler = defineConsoleHandler(
  'rotateAlertWebhookSecret',
  ({ db, alertWebhooks }) =>
    async ({ team, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      const destination = await findAlertWebhook(db, property.id, params.webhookId);
      const rotated = await rotateAlertWebhookSecret(db, alertWebhooks, destination);
      return alertWebhookAnswer(db, rotated, alertWebhooks.signingKey);
    },
);
