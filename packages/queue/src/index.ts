export { type Job, type Queue, RateLimitError, UnrecoverableError, type Worker } from 'bullmq';
export {
  alertEvaluationJob,
  answerScheduleJob,
  type CollectAnswerJobData,
  CRAWL_BATCH_JOB_MAX_EVENTS,
  type CrawlBatchJobData,
  collectAnswerJob,
  crawlBatchChunkId,
  crawlBatchJob,
  crawlBatchJobs,
  type EmailJobData,
  emailJob,
  emailSweepJob,
  type JobContract,
  type LeadJobData,
  leadJob,
  rejudgePropertyJob,
  WEBHOOK_DELIVERY_MAX_ATTEMPTS,
  type WebhookDeliveryJobData,
  webhookDeliveryJob,
  webhookDeliverySweepJob,
  weeklyReportsJob,
} from './job-contracts.ts';
export { batchedEnqueue, createQueue, enqueue, enqueueBulk } from './producer.ts';
export { claimQueueLayout, QueueLayoutBusyError, queueLayoutGate } from './queue-layout.ts';
export {
  createShardedQueue,
  isShardedQueue,
  type ShardedQueue,
  shardOfProperty,
  shardPrefix,
} from './queue-shards.ts';
export { DELAY_FROM_ERROR_BACKOFF, delayFromError, RetryLaterError } from './retry-later.ts';
export { createJobWorker } from './worker.ts';
