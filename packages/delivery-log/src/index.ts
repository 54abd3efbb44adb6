export {
  countByStatus,
  crawlConnections,
  type PropertyCrawlConnection,
} from './crawl-connections.ts';
export {
  CRAWL_CONNECTION_STATUSES,
  type CrawlConnectionStatus,
  crawlConnectionStatus,
  isAcceptedCrawlAttempt,
  latestCrawlRefusal,
} from './crawl-status.ts';
export { recentDeliveries } from './delivery-log.ts';
export {
  createDeliveryLogWriter,
  type DeliveryAttempt,
  type DeliveryLogWriter,
  recordDeliveryAttempt,
  SUMMARY_RUN_GAP_HOURS,
  type UnauthenticatedAttempt,
} from './delivery-log-writer.ts';
export {
  acceptedLeadIds,
  isStoredLeadAttempt,
  type LeadWebhookStatus,
  latestWebhookRefusal,
  leadWebhookStatus,
  WEBHOOK_LOG_SHOWN,
  type WebhookAttemptOutcome,
} from './webhook-status.ts';
