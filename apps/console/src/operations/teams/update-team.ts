import { teamDetail, updateTeam } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** PATCH /api/team: answers the team as GET /api/team would afterwards. */
export const updateTeamHandler = defineConsoleHandler('updateTeam', ({ db }) => async ({ team, body }) => {
  await updateTeam(db, team.teamId, body);
  return teamDetail(db, team.teamId, team.role);
});
