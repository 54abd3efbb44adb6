import { findTeamProperty, webhookLog } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/webhook/log. */
export const getWebhookLogHandler = defineConsoleHandler(
  'getWebhookLog',
  ({ db }) =>
    async ({ team, params }) =>
      webhookLog(db, (await findTeamProperty(db, team.teamId, params.id)).id),
);
