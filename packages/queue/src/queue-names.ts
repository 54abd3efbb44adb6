export const QUEUE_NAMES = {
  crawlBatch: 'crawl-batch',
  lead: 'lead',
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];
