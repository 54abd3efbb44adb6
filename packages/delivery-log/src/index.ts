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
} from './crawl-status.ts';
export { recentDeliveries } from './delivery-log.ts';
export {
  createDeliveryLogWriter,
  type DeliveryAttempt,
  type DeliveryLogWriter,
  recordDeliveryAttempt,
} from './delivery-log-writer.ts';
export {
  acceptedLeadIds,
  isStoredLeadAttempt,
  type LeadWebhookStatus,
  leadWebhookStatus,
  WEBHOOK_LOG_SHOWN,
  type WebhookAttemptOutcome,
} from './webhook-status.ts';
