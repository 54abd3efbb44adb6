export { bootApp, closeOnce } from './boot.ts';
export { pingPostgres, pingRedis } from './dependency-checks.ts';
export { healthRouter, type ReadinessCheck } from './health.ts';
export { type RunningServer, startHttpServer } from './http-server.ts';
export { runService, type Service, type ServiceLifecycle } from './lifecycle.ts';
export { createMetricsRegistry } from './metrics.ts';
export {
  type FailedJob,
  type QueueConsumer,
  startWorkerService,
  type WorkerConsumer,
  type WorkerServiceOptions,
} from './worker-service.ts';
