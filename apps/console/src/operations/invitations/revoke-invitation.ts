import { revokeInvitation } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** DELETE /api/team/invitations/{id}. */
export const revokeInvitationHandler = defineConsoleHandler(
  'revokeInvitation',
  ({ db, now }) =>
    async ({ team, params }) => ({
      invitation: await revokeInvitation(db, { teamId: team.teamId, actor: team, invitationId: params.id, now: now() }),
    }),
);
