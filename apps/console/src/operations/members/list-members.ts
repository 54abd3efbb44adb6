import { listMembers } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/team/members: every member may see who else is in the team. */
export const listMembersHandler = defineConsoleHandler('listMembers', ({ db }) => async ({ team }) => ({
  members: await listMembers(db, team.teamId),
}));
