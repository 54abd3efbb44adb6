import { updateAlertRules } from '@vt/alerts';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** PATCH /api/properties/{id}/alert-rules: owners and admins (the endpoint's access) change the rules. */
export const updateAlertRulesHandler = defineConsoleHandler(
  'updateAlertRules',
  ({ db }) =>
    async ({ team, params, body }) =>
      updateAlertRules(db, await findTeamProperty(db, team.teamId, params.id), body),
);
