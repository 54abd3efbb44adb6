import { peekInvitation } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/invitations/lookup: what the link is for, to whoever holds it (no session needed). */
export const getInvitationHandler = defineConsoleHandler('getInvitation', ({ db, now }) => async ({ body }) => ({
  invitation: await peekInvitation(db, body.token, now()),
}));
