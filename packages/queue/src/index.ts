export { type Job, type Queue, UnrecoverableError, type Worker } from 'bullmq';
export {
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
} from './job-contracts.ts';
export { batchedEnqueue, createQueue, enqueue, enqueueBulk } from './producer.ts';
export { createJobWorker } from './worker.ts';
