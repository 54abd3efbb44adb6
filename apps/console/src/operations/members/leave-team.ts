import { leaveTeam } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/team/leave: the last owner stays (409 LAST_OWNER). */
export const leaveTeamHandler = defineConsoleHandler('leaveTeam', ({ db }) => async ({ team, session }) => {
  await leaveTeam(db, { teamId: team.teamId, userId: session.user.id });
  return undefined;
});
