export { apiReferenceRouter } from './api-reference.ts';
export { bootApp, closeOnce } from './boot.ts';
export { COMPRESSION_THRESHOLD_BYTES, compressedAnswers } from './compressed-answers.ts';
export { pingPostgres, pingRedis } from './dependency-checks.ts';
export { healthRouter, type ReadinessCheck } from './health.ts';
export { startHealthServer } from './health-server.ts';
export { applyHttpDefaults, requestIdOf } from './http-defaults.ts';
export type { RunningServer } from './http-server.ts';
export {
  type HttpServiceConfig,
  type HttpServiceOptions,
  type HttpServiceResources,
  startHttpService,
} from './http-service.ts';
export { createJobMetrics, type JobMetrics, watchQueueDepth } from './job-metrics.ts';
export { type JobAttempt, type JobOutcome, type JobWorkerSpec, jobWorker, type QueueJobWorker } from './job-worker.ts';
export { lagTolerantReader } from './lag-tolerant-reader.ts';
export type { Service } from './lifecycle.ts';
export { createMetricsRegistry } from './metrics.ts';
export {
  type QueueWorkerConfig,
  type QueueWorkerOptions,
  type QueueWorkerResources,
  startQueueWorker,
} from './queue-worker.ts';
export { withTimeout } from './with-timeout.ts';
