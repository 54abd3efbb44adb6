import { listAlertRules } from '@vt/alerts';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/alert-rules: every member reads the rules, their state and the recent messages. */
export const listAlertRulesHandler = defineConsoleHandler(
  'listAlertRules',
  ({ db }) =>
    async ({ team, params }) =>
      listAlertRules(db, await findTeamProperty(db, team.teamId, params.id)),
);
