export { type CrawlConnectionStatus, crawlConnectionStatus } from './crawl-status.ts';
export {
  DELIVERY_LOG_SIZE,
  type DeliveryAttempt,
  findNamedCrawlBatch,
  recentDeliveries,
  recordDeliveryAttempt,
} from './delivery-log.ts';
