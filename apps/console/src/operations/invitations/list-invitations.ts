import { listInvitations } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/team/invitations: owners and admins only, an invited address is not yet the team's to show. */
export const listInvitationsHandler = defineConsoleHandler('listInvitations', ({ db, now }) => async ({ team }) => ({
  invitations: await listInvitations(db, team.teamId, now()),
}));
