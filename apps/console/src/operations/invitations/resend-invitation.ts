import { resendInvitation } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { withinInvitationLimit } from './send-limit.ts';

/** POST /api/team/invitations/{id}/resend: a new link, the old one dead. */
export const resendInvitationHandler = defineConsoleHandler('resendInvitation', (deps) => async (ctx) => {
  const { invitation } = await withinInvitationLimit(deps, ctx, () =>
    resendInvitation(deps.db, {
      teamId: ctx.team.teamId,
      actor: ctx.team,
      invitationId: ctx.params.id,
      consolePublicUrl: deps.invitations.consolePublicUrl,
      now: deps.now(),
    }),
  );
  return { invitation };
});
