import { findTeamProperty, rotateWebhookSecret, webhookSetup } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/webhook/rotate: the dialog with the new secret, and until when the old one verifies. */
export const rotateWebhookSecretHandler = defineConsoleHandler(
  'rotateWebhookSecret',
  ({ db, connection, now }) =>
    async ({ team, params, body }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      const rotated = await rotateWebhookSecret(db, connection, property, {
        overlapHours: body.overlapHours,
        now: now(),
      });
      return webhookSetup(db, connection, rotated, { showSecrets: true, now: now() });
    },
);
