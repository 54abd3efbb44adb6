export type { Queue } from 'bullmq';
export type { Redis } from 'ioredis';
export {
  closeRedisConnection,
  createProducerConnection,
  createWorkerConnection,
  type RedisConnectionOptions,
} from './connections.ts';
export { type CrawlBatchJobData, crawlBatchJob, jobContracts, type LeadJobData, leadJob } from './job-contracts.ts';
export { batchedEnqueue, createQueue, enqueue } from './producer.ts';
export { QUEUE_NAMES, type QueueName } from './queue-names.ts';
export { createJobWorker } from './worker.ts';
