import { OperationError, TEST_EMAIL_LIMIT } from '@vt/contracts/console';
import { enqueueEmail, findTeamEmail, testEmail, testEmailsSince } from '@vt/mail';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { teamEmailAnswer } from './list-team-emails.ts';

/**
 * POST /api/team/emails/test: an email to the caller, through the outbox and the notifier like
 * any other, so an operator sees whether the deployment's SMTP server takes mail. Limited per
 * team and hour: each is a real message to a real inbox.
 */
export const sendTestEmailHandler = defineConsoleHandler('sendTestEmail', ({ db, now, wakeEmailSender }) => {
  return async ({ team, session, res }) => {
    const at = now();
    const windowMs = TEST_EMAIL_LIMIT.windowSeconds * 1000;
    const recent = await testEmailsSince(db, team.teamId, new Date(at.getTime() - windowMs));
    const oldest = recent[0];
    if (recent.length >= TEST_EMAIL_LIMIT.perTeam && oldest) {
      const seconds = Math.ceil((oldest.getTime() + windowMs - at.getTime()) / 1000);
      res.set('Retry-After', String(Math.max(1, seconds)));
      throw new OperationError(
        'RATE_LIMIT_EXCEEDED',
        `This team sent ${TEST_EMAIL_LIMIT.perTeam} test emails within the hour; the next can go in ${Math.ceil(seconds / 60)} min.`,
      );
    }
    const { name: teamName } = await db.team.findUniqueOrThrow({ where: { id: team.teamId }, select: { name: true } });
    const { id } = await enqueueEmail(db, testEmail({ teamId: team.teamId, teamName, to: session.user.email, at }));
    // The answer is the email as queued, read before the sender is woken: read after, it was
    // pending or already sending depending on how fast the notifier claimed it.
    const queued = await findTeamEmail(db, team.teamId, id);
    if (!queued) throw new Error('the queued test email is not there');
    // Stored already: if Redis is away, the notifier's sweep sends it all the same.
    await wakeEmailSender(id).catch(() => undefined);
    return { email: teamEmailAnswer(queued) };
  };
});
