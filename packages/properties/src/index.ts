export { crawlActivity, leadActivity } from './activity.ts';
export {
  type ConnectionSettings,
  configurationNotes,
  crawlConnection,
  crawlCredentials,
  crawlSetup,
  disconnectCrawl,
  reconnectCrawl,
  rotateCrawlToken,
  webhookConnection,
  webhookCredentials,
  webhookSetup,
} from './connection.ts';
export { crawlLog, webhookLog } from './delivery-logs.ts';
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
