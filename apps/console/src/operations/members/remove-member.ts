import { removeMember } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** DELETE /api/team/members/{userId}. */
export const removeMemberHandler = defineConsoleHandler('removeMember', ({ db }) => async ({ team, params }) => {
  await removeMember(db, { teamId: team.teamId, actor: team, userId: params.userId });
  return undefined;
});
