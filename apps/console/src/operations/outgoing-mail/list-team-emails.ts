import { TEAM_EMAILS_LIMIT } from '@vt/contracts/console';
import { listTeamEmails, type TeamEmail } from '@vt/mail';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/team/emails: owners and admins only, since it names every recipient. */
export const listTeamEmailsHandler = defineConsoleHandler(
  'listTeamEmails',
  ({ db, caughtMail }) =>
    async ({ team }) => ({
      emails: (await listTeamEmails(db, team.teamId, TEAM_EMAILS_LIMIT)).map(teamEmailAnswer),
      caughtMail: caughtMail !== undefined,
    }),
);

/** A listed email as the API answers it. */
export function teamEmailAnswer(email: TeamEmail) {
  return {
    ...email,
    nextAttemptAt: email.nextAttemptAt?.toISOString() ?? null,
    createdAt: email.createdAt.toISOString(),
    sentAt: email.sentAt?.toISOString() ?? null,
  };
}
