// The weekly report: a property's overview numbers and their week-over-week trends, mailed on
// Monday morning (team time) to each member who subscribed themself, with a one-click
// unsubscribe; the console's preview is the same report.
export { type RenderedReport, renderWeeklyReport, reportRows } from './report-content.ts';
export { isoWeekOf, REPORT_SEND_HOUR, type ReportWeek, reportWeekAt } from './report-week.ts';
export { type ReportRun, type ReportSender, reportDedupeKey, sendDueReports } from './send-due-reports.ts';
export {
  type ReportSubscriptionState,
  reportSubscriptionOf,
  subscribeToReport,
  unsubscribeFromReport,
  unsubscribeWithToken,
} from './subscriptions.ts';
export {
  type ReportLinks,
  teamTimeZone,
  unsubscribeUrls,
  type WeeklyReport,
  weeklyReport,
} from './weekly-report.ts';
