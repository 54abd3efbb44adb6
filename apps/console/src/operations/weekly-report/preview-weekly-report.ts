import { formatUtcDay } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { weeklyReport } from '@vt/weekly-report';
import { defineConsoleHandler } from '../define-console-handler.ts';

/**
 * GET /api/properties/{id}/weekly-report/preview: this week's report built as the notifier builds
 * it, for the caller (with their unsubscribe link when subscribed), so what is shown is what is sent.
 */
export const previewWeeklyReportHandler = defineConsoleHandler(
  'previewWeeklyReport',
  ({ db, now, weeklyReport: links }) =>
    async ({ team, session, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      const [owner, subscription] = await Promise.all([
        db.team.findUniqueOrThrow({ where: { id: team.teamId }, select: { name: true, settings: true } }),
        db.reportSubscription.findUnique({
          where: { userId_propertyId: { userId: session.user.id, propertyId: property.id } },
        }),
      ]);
      const report = await weeklyReport(db, {
        property,
        team: owner,
        ...(subscription ? { subscriptionId: subscription.id } : {}),
        links,
        now: now(),
      });
      return {
        week: report.week.week,
        from: formatUtcDay(report.week.from),
        to: formatUtcDay(report.week.to),
        dueAt: report.week.dueAt.toISOString(),
        timeZone: report.timeZone,
        subscribed: subscription !== null,
        subject: report.subject,
        html: report.html,
        text: report.text,
      };
    },
);
