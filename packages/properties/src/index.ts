// Every property's crawl connection at once (the metrics' count, `ops crawl connections`): the
// delivery log's own reading, offered here with the one-property reading above.
export { CRAWL_CONNECTION_STATUSES, countByStatus, crawlConnections } from '@vt/delivery-log';
export { crawlActivity, crawlerRangesLoaded, leadActivity, platformNames } from './activity.ts';
export {
  type ConnectionSettings,
  configurationNotes,
  crawlConnection,
  crawlCredentials,
  crawlSetup,
  disconnectCrawl,
  reconnectCrawl,
  rotateCrawlToken,
  rotateWebhookSecret,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  webhookConnection,
  webhookCredentials,
  webhookSecretState,
  webhookSetup,
} from './connection.ts';
export { crawlLog, webhookLog } from './delivery-logs.ts';
export { onboarding, onboardingChecklists } from './onboarding.ts';
export { teamOverview } from './overview.ts';
// The overview's counts and figures, for whatever else reads a property's weeks the same way
// (the alert rules' drops).
export { type DayRange, type PeriodCounts, periodCounts } from './overview-counts.ts';
export { answerTotals, overviewFigures } from './overview-figures.ts';
export {
  addCompetitor,
  addPrompt,
  createProperty,
  deleteProperty,
  findTeamProperty,
  listProperties,
  propertyDetail,
  removeCompetitor,
  removePrompt,
  updatePrompt,
  updateProperty,
} from './properties.ts';
export { type PropertyWeekOverview, propertyWeekOverview } from './property-week.ts';
export { MIN_ANSWERS } from './what-changed.ts';
