import { changeRole } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** PUT /api/team/role: the role rules (who may grant or take the owner role) are the accounts package's. */
export const changeRoleHandler = defineConsoleHandler('changeRole', ({ db }) => async ({ team, body }) => ({
  member: await changeRole(db, { teamId: team.teamId, actor: team, userId: body.userId, role: body.role }),
}));
