import { memberPage } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { consolePage } from '../list-page.ts';

/** GET /api/team/members: every member may see who else is in the team. */
export const listMembersHandler = defineConsoleHandler(
  'listMembers',
  ({ db }) =>
    async ({ team, query }) =>
      memberPage(db, team.teamId, consolePage(query)),
);
