import { addMember } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/team/members: a person who has signed up, found by email. */
export const addMemberHandler = defineConsoleHandler('addMember', ({ db }) => async ({ team, body }) => ({
  member: await addMember(db, { teamId: team.teamId, actor: team, email: body.email, role: body.role }),
}));
