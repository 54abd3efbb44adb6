export type { Queue } from 'bullmq';
export {
  type CrawlBatchJobData,
  crawlBatchJob,
  type JobContract,
  type LeadJobData,
  leadJob,
} from './job-contracts.ts';
export { batchedEnqueue, createQueue, enqueue } from './producer.ts';
export { createJobWorker } from './worker.ts';
