import { OperationError } from '@vt/contracts/console';
import { findTeamEmail } from '@vt/mail';
import { defineConsoleHandler } from '../define-console-handler.ts';

const notCaught = (why: string) => new OperationError('NOT_FOUND', why);

/**
 * GET /api/team/emails/{id}/caught: in development only (the console was given MAIL_CATCHER_URL),
 * the copy of one of the team's emails that the mail catcher received. Without a catcher the
 * view does not exist: 404 as for any unknown email.
 */
export const getCaughtEmailHandler = defineConsoleHandler('getCaughtEmail', ({ db, caughtMail }) => {
  return async ({ team, params }) => {
    if (!caughtMail) throw notCaught('This deployment runs no mail catcher: its email goes to a real SMTP server.');
    const email = await findTeamEmail(db, team.teamId, params.id);
    if (!email) throw notCaught('No email with that id.');
    const caught = await caughtMail.find(email.id).catch(() => {
      throw new OperationError('NOT_CONFIGURED', 'The mail catcher does not answer: is `pnpm start` still running?');
    });
    if (!caught) throw notCaught('The mail catcher has not received this email (yet).');
    return caught;
  };
});
