export { type Job, type Queue, UnrecoverableError, type Worker } from 'bullmq';
export {
  answerScheduleJob,
  type CollectAnswerJobData,
  type CrawlBatchJobData,
  collectAnswerJob,
  crawlBatchJob,
  type JobContract,
  type LeadJobData,
  leadJob,
  rejudgePropertyJob,
} from './job-contracts.ts';
export { batchedEnqueue, createQueue, enqueue } from './producer.ts';
export { createJobWorker } from './worker.ts';
