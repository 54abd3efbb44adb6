import { teamDetail } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/team: the current team with its members and the caller's role. */
export const getTeamHandler = defineConsoleHandler(
  'getTeam',
  ({ db }) =>
    async ({ team }) =>
      teamDetail(db, team.teamId, team.role),
);
