import { listTeamEmails, type TeamEmail } from '@vt/mail';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { consolePage } from '../list-page.ts';

/** GET /api/team/emails: owners and admins only, since it names every recipient. */
export const listTeamEmailsHandler = defineConsoleHandler(
  'listTeamEmails',
  ({ db, caughtMail }) =>
    async ({ team, query }) => {
      const { emails, ...cursors } = await listTeamEmails(db, team.teamId, consolePage(query));
      return { emails: emails.map(teamEmailAnswer), ...cursors, caughtMail: caughtMail !== undefined };
    },
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
