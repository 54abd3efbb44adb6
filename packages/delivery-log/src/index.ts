export { type CrawlConnectionStatus, crawlConnectionStatus, isAcceptedCrawlAttempt } from './crawl-status.ts';
export {
  DELIVERY_LOG_SIZE,
  type DeliveryAttempt,
  findNamedCrawlBatch,
  recentDeliveries,
  recordDeliveryAttempt,
} from './delivery-log.ts';
export { createDeliveryLogWriter, type DeliveryLogWriter } from './delivery-log-writer.ts';
export {
  isAcceptedLeadAttempt,
  type LeadWebhookStatus,
  leadWebhookStatus,
  WEBHOOK_LOG_SHOWN,
} from './webhook-status.ts';
