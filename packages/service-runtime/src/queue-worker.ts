import { createPrismaClient, type DatabaseConfig, type PrismaClient, processedJobsPruneTask } from '@vt/db';
import type { Logger } from '@vt/logger';
import { createJobWorker, createQueue, type JobContract } from '@vt/queue';
import { closeRedisConnection, createWorkerConnection } from '@vt/redis';
import type { z } from 'zod';
import { closeOnce } from './boot.ts';
import { pingPostgres, pingRedis } from './dependency-checks.ts';
import { startHealthServer } from './health-server.ts';
import { createJobMetrics, watchQueueDepth } from './job-metrics.ts';
import type { Service } from './lifecycle.ts';
import { createMetricsRegistry } from './metrics.ts';

/**
 * What a job's processor did: applied its effects, or changed nothing, and why (a job already
 * applied, a property deleted since the job was queued, …). Either way the job is complete.
 */
export type JobOutcome<Reason extends string = string> = { applied: true } | { applied: false; reason: Reason };

/** What every worker process reads from its config. */
export interface QueueWorkerConfig extends DatabaseConfig {
  HOST: string;
  REDIS_URL: string;
  QUEUE_PREFIX: string;
  /** How long a hold on a job lasts unrenewed; BullMQ's 30 s when absent. */
  JOB_LOCK_SECONDS?: number;
}

export interface QueueWorkerOptions<S extends z.ZodType> {
  /** The app's name: in logs, metrics and its Postgres application_name. */
  name: string;
  config: QueueWorkerConfig;
  /** Port of the small HTTP server that answers /healthz, /readyz and /metrics. */
  port: number;
  concurrency: number;
  logger: Logger;
  contract: JobContract<S>;
  /**
   * The job's processor: applies one parsed payload with exactly-once effects (a plain function
   * of the payload and the database, testable without Redis). A throw fails the attempt, and
   * BullMQ retries it with the contract's backoff.
   */
  handle: (data: z.output<S>, resources: { db: PrismaClient }) => Promise<JobOutcome>;
  /** What a job's log lines say about it: ids and counts only, never the payload's contents. */
  jobFields: (data: z.output<S>) => Record<string, unknown>;
}

/**
 * A worker process, whole: one queue's jobs handled by `handle` (the payload parsed with the
 * contract's schema first), its Postgres and Redis connections, the hourly prune of its
 * processed-job markers, and /healthz, /readyz and /metrics (the process's defaults, and the job
 * metrics and queue depth of ./job-metrics.ts). `close()` stops in order: readiness
 * answers 503, jobs in progress finish (new ones stay queued), then the health server, Redis and
 * Postgres close.
 */
export async function startQueueWorker<S extends z.ZodType>(
  options: QueueWorkerOptions<S>,
): Promise<Service & { port: number }> {
  const { name, config, logger, contract, jobFields } = options;
  const db = createPrismaClient(config, name);
  const redis = createWorkerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  const registry = createMetricsRegistry(name);
  const jobMetrics = createJobMetrics(registry);
  const worker = createJobWorker({
    contract,
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    concurrency: options.concurrency,
    lockMs: config.JOB_LOCK_SECONDS === undefined ? undefined : config.JOB_LOCK_SECONDS * 1000,
    handle: async (data, job) => {
      const outcome = await options.handle(data, { db });
      const fields = { jobId: job.id, ...jobFields(data) };
      if (outcome.applied) logger.debug(fields, `${contract.name} job applied`);
      else {
        jobMetrics.skipped(contract.queue, outcome.reason);
        logger.info({ ...fields, reason: outcome.reason }, `${contract.name} job skipped`);
      }
    },
    onUnknownJob: (job) =>
      logger.warn({ jobId: job.id, jobName: job.name }, `unknown job on the ${contract.queue} queue`),
  });
  // Listening first: an 'error' event with no listener would throw. A failed job is logged with
  // what jobFields says of it (its payload may not even parse), never with job.data; BullMQ retries
  // it with backoff, then keeps it as failed.
  worker.on('failed', (job, err) => {
    const parsed = contract.schema.safeParse(job?.data);
    const fields = parsed.success ? jobFields(parsed.data) : {};
    logger.error({ err, jobId: job?.id, attempt: job?.attemptsMade, ...fields }, `${contract.name} job failed`);
  });
  worker.on('error', (err) => logger.error({ err }, `${contract.name} worker error`));
  jobMetrics.observe(worker, contract.queue);
  // The queue's depth, read at scrape time over the worker's own connection (BullMQ's blocking
  // reads use a connection of their own); a scrape waits at most a second for it.
  const depthQueue = createQueue(contract, redis, config.QUEUE_PREFIX);
  watchQueueDepth(registry, [depthQueue]);

  let closing = false;
  const server = await startHealthServer({
    registry,
    checks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(redis) },
    ],
    isClosing: () => closing,
    port: options.port,
    host: config.HOST,
    logger,
  });
  worker.run().catch((err: unknown) => logger.error({ err }, 'queue consumer stopped'));
  // Housekeeping: markers outlive every retry, then go; every replica may prune, harmlessly.
  const prune = processedJobsPruneTask(db, contract.queue);
  const pruneTimer = setInterval(() => {
    prune.run().catch((err: unknown) => logger.error({ err, task: prune.name }, 'periodic task failed'));
  }, prune.everyMs);
  pruneTimer.unref();
  logger.info({ port: server.port, queue: contract.queue }, `${name} started`);
  return {
    port: server.port,
    close: closeOnce(async () => {
      closing = true;
      clearInterval(pruneTimer);
      await worker.close(); // finish in-flight jobs
      await server.close();
      await depthQueue.close();
      await closeRedisConnection(redis);
      await db.$disconnect();
    }),
  };
}
