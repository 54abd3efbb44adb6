import { listInvitations } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { consolePage } from '../list-page.ts';

/** GET /api/team/invitations: owners and admins only, an invited address is not yet the team's to show. */
export const listInvitationsHandler = defineConsoleHandler(
  'listInvitations',
  ({ db, now }) =>
    async ({ team, query }) =>
      listInvitations(db, team.teamId, now(), consolePage(query)),
);
