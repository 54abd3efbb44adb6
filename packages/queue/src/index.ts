export type { Queue } from 'bullmq';
export { type CrawlBatchJobData, crawlBatchJob, jobContracts, type LeadJobData, leadJob } from './job-contracts.ts';
export { batchedEnqueue, createQueue, enqueue } from './producer.ts';
export { QUEUE_NAMES, type QueueName } from './queue-names.ts';
export { createJobWorker } from './worker.ts';
