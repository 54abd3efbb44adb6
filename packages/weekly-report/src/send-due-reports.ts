import type { PrismaClient } from '@vt/db';
import { enqueueEmail, InvalidEmailError } from '@vt/mail';
import type { PropertyWeekOverview } from '@vt/properties';
import { reportWeekAt } from './report-week.ts';
import { type ReportLinks, teamTimeZone, unsubscribeUrls, weeklyReport } from './weekly-report.ts';

export interface ReportSender {
  db: PrismaClient;
  links: ReportLinks & { unsubscribeKey: string };
  /** Asks the email sender to send a stored email now; a failure leaves it to the outbox's sweep. */
  wake: (emailId: string) => Promise<void>;
}

export interface ReportRun {
  /** Reports put in the outbox by this run. */
  queued: number;
  /** Reports another run (a replica, a replayed job) had queued already: nothing sent twice. */
  alreadyQueued: number;
  /** Subscriptions removed: their person is no longer a member of the property's team. */
  removed: number;
}

/** The outbox's name for one report: exactly (person, property, week), so it is queued once. */
export const reportDedupeKey = (userId: string, propertyId: string, week: string) =>
  `weekly-report:${userId}:${propertyId}:${week}`;

/**
 * Queues every weekly report due at `now`: for each subscription whose person is still a member
 * of the property's team, the team's current week's report once its due time (Monday 08:00 team
 * time) has come, if the subscription is older than that due time (a person subscribing on a
 * Wednesday gets the next Monday's, not last week's at once). Each report goes into the outbox
 * under its dedupe key with the subscription's note of the week, in one transaction: two
 * notifiers, or a job run twice, queue it once. Safe to run at any moment, as often as wanted.
 */
export async function sendDueReports(sender: ReportSender, now: Date): Promise<ReportRun> {
  const { db } = sender;
  const removed = await db.$executeRaw`
    DELETE FROM report_subscriptions s USING properties p
    WHERE p.id = s.property_id
      AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.team_id = p.team_id AND m.user_id = s.user_id)`;
  const subscriptions = await db.reportSubscription.findMany({
    include: { user: { select: { email: true } }, property: { include: { team: true } } },
    orderBy: { id: 'asc' },
  });
  const run: ReportRun = { queued: 0, alreadyQueued: 0, removed };
  // One reading of a property's week for all its subscribers.
  const overviews = new Map<string, Promise<PropertyWeekOverview>>();
  for (const subscription of subscriptions) {
    const { property, user } = subscription;
    const week = reportWeekAt(now, teamTimeZone(property.team.settings));
    const due = now >= week.dueAt && subscription.createdAt < week.dueAt;
    if (!due || subscription.lastReportWeek === week.week) continue;
    const report = await weeklyReport(db, {
      property,
      team: property.team,
      subscriptionId: subscription.id,
      links: sender.links,
      now,
      overviews,
    });
    const oneClick = unsubscribeUrls(sender.links, subscription.id)?.oneClick;
    const outcome = await db
      .$transaction(async (tx) => {
        const email = await enqueueEmail(tx, {
          teamId: property.teamId,
          kind: 'weekly-report',
          to: user.email,
          subject: report.subject,
          text: report.text,
          html: report.html,
          dedupeKey: reportDedupeKey(subscription.userId, property.id, week.week),
          ...(oneClick ? { listUnsubscribe: oneClick } : {}),
        });
        await tx.reportSubscription.updateMany({
          where: { id: subscription.id },
          data: { lastReportWeek: week.week },
        });
        return email;
      })
      .catch((err: unknown) => {
        // An address the outbox refuses would be refused every tick: noted as done, never retried.
        if (err instanceof InvalidEmailError) return undefined;
        throw err;
      });
    if (!outcome) {
      await db.reportSubscription.updateMany({ where: { id: subscription.id }, data: { lastReportWeek: week.week } });
      continue;
    }
    if (!outcome.created) {
      run.alreadyQueued += 1;
      continue;
    }
    run.queued += 1;
    await sender.wake(outcome.id).catch(() => undefined);
  }
  return run;
}
