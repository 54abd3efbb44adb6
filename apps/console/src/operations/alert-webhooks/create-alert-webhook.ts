import { alertWebhookAnswer, createAlertWebhook } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/alert-webhooks: the URL passes the SSRF guard before it is stored. */
export const createAlertWebhookHandler = defineConsoleHandler(
  'createAlertWebhook',
  ({ db, alertWebhooks }) =>
    async ({ team, session, params, body }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      const created = await createAlertWebhook(db, alertWebhooks, {
        propertyId: property.id,
        createdById: session.user.id,
        ...body,
      });
      return alertWebhookAnswer(db, created, alertWebhooks.signingKey);
    },
);
