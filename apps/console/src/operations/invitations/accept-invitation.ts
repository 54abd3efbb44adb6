import { acceptInvitation, rememberSessionTeam } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/invitations/accept: the signed-in person joins, and their session acts on the team. */
export const acceptInvitationHandler = defineConsoleHandler(
  'acceptInvitation',
  ({ db, now }) =>
    async ({ body, session }) => {
      const accepted = await acceptInvitation(db, { token: body.token, user: session.user, now: now() });
      await rememberSessionTeam(db, session.id, accepted.teamId);
      return accepted;
    },
);
