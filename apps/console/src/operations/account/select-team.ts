import { rememberSessionTeam, roleIn } from '@vt/accounts';
import { OperationError } from '@vt/contracts/console';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { meOf } from './account-answers.ts';

/** PUT /api/session/team: a team the person is not in is answered like one that does not exist. */
export const selectTeamHandler = defineConsoleHandler('selectTeam', ({ db }) => async ({ session, body }) => {
  if (!(await roleIn(db, body.teamId, session.user.id))) {
    throw new OperationError('NOT_FOUND', 'No team with that id.');
  }
  await rememberSessionTeam(db, session.id, body.teamId);
  return meOf(db, { ...session, teamId: body.teamId });
});
