import { teamSettingsSchema } from '@vt/contracts/console';
import { deriveReportUnsubscribeToken } from '@vt/credentials';
import type { PrismaClient, Property } from '@vt/db';
import { type PropertyWeekOverview, propertyWeekOverview } from '@vt/properties';
import { type RenderedReport, renderWeeklyReport } from './report-content.ts';
import { type ReportWeek, reportWeekAt } from './report-week.ts';

/** Where the report's links point, and the key its unsubscribe links are signed with. */
export interface ReportLinks {
  /** CONSOLE_PUBLIC_URL, without a trailing slash. */
  consoleUrl: string;
  /** REPORT_UNSUBSCRIBE_KEY; without it no link can be signed (a preview shows none). */
  unsubscribeKey?: string;
}

/** A team's time zone as its settings hold it; UTC when none (or one that no longer reads). */
export function teamTimeZone(settings: unknown): string {
  const parsed = teamSettingsSchema.safeParse(settings);
  return (parsed.success && parsed.data.timeZone) || 'UTC';
}

/** The page a report's link opens, and the API address mail clients POST to (RFC 8058). */
export function unsubscribeUrls(links: ReportLinks, subscriptionId: string) {
  if (!links.unsubscribeKey) return undefined;
  const token = encodeURIComponent(deriveReportUnsubscribeToken(links.unsubscribeKey, subscriptionId));
  return {
    page: `${links.consoleUrl}/unsubscribe?token=${token}`,
    oneClick: `${links.consoleUrl}/api/weekly-report/unsubscribe?token=${token}`,
  };
}

export interface WeeklyReport extends RenderedReport {
  week: ReportWeek;
  timeZone: string;
}

/**
 * The report of a property for the team's current week (the one sent this week, covering the
 * week before), as one person gets it: the email and the console's preview both come from here,
 * so a preview is what is sent.
 */
export async function weeklyReport(
  db: PrismaClient,
  input: {
    property: Property;
    team: { name: string; settings: unknown };
    /** The person's subscription: its unsubscribe link goes in the report. */
    subscriptionId?: string;
    links: ReportLinks;
    now: Date;
    /** Weeks already read, by property and week: a run's subscribers to one property share one reading. */
    overviews?: Map<string, Promise<PropertyWeekOverview>>;
  },
): Promise<WeeklyReport> {
  const { property, team, links } = input;
  const timeZone = teamTimeZone(team.settings);
  const week = reportWeekAt(input.now, timeZone);
  const key = `${property.id}:${week.week}`;
  let reading = input.overviews?.get(key);
  if (!reading) {
    reading = propertyWeekOverview(db, property, week.from);
    input.overviews?.set(key, reading);
  }
  const overview = await reading;
  const unsubscribe = input.subscriptionId ? unsubscribeUrls(links, input.subscriptionId) : undefined;
  const rendered = renderWeeklyReport({
    teamName: team.name,
    timeZone,
    property,
    week,
    overview,
    propertyUrl: `${links.consoleUrl}/t/${property.teamId}/p/${property.id}/activity`,
    ...(unsubscribe ? { unsubscribeUrl: unsubscribe.page } : {}),
  });
  return { ...rendered, week, timeZone };
}
