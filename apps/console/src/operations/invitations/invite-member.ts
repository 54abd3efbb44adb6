import { inviteMember } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { withinInvitationLimit } from './send-limit.ts';

/** POST /api/team/invitations: the invitation and its email, stored together, then sent. */
export const inviteMemberHandler = defineConsoleHandler('inviteMember', (deps) => async (ctx) => {
  const { invitation } = await withinInvitationLimit(deps, ctx, () =>
    inviteMember(deps.db, {
      teamId: ctx.team.teamId,
      actor: ctx.team,
      email: ctx.body.email,
      role: ctx.body.role,
      consolePublicUrl: deps.invitations.consolePublicUrl,
      now: deps.now(),
    }),
  );
  return { invitation };
});
