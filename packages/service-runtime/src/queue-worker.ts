import { createPrismaClient, type DatabaseConfig, type PrismaClient, processedJobsPruneTask } from '@vt/db';
import type { Logger } from '@vt/logger';
import { createQueue, isShardedQueue, type JobContract, type Queue, shardPrefix } from '@vt/queue';
import {
  closeRedisConnection,
  createProducerConnection,
  createWorkerConnection,
  type RedisClusterNode,
} from '@vt/redis';
import type { Registry } from 'prom-client';
import { closeOnce } from './boot.ts';
import { pingPostgres, pingRedis } from './dependency-checks.ts';
import { startHealthServer } from './health-server.ts';
import { createJobMetrics, watchQueueDepth } from './job-metrics.ts';
import type { QueueJobWorker } from './job-worker.ts';
import type { Service } from './lifecycle.ts';
import { createMetricsRegistry } from './metrics.ts';

export type { JobOutcome } from './job-worker.ts';

/** What every worker process reads from its config. */
export interface QueueWorkerConfig extends DatabaseConfig {
  HOST: string;
  REDIS_URL: string;
  /** Set: Redis is a cluster reached through these seed nodes. */
  REDIS_CLUSTER_NODES?: RedisClusterNode[];
  QUEUE_PREFIX: string;
  /** How many shards the sharded queues (crawl-batch, lead) are split over; 1 when absent. */
  QUEUE_SHARDS?: number;
  /** Which of those shards this process works; all when absent. */
  QUEUE_SHARDS_CONSUMED?: number[];
  /** How long a hold on a job lasts unrenewed; BullMQ's 30 s when absent. */
  JOB_LOCK_SECONDS?: number;
}

/** What a worker process's queues are made with. */
export interface QueueWorkerResources {
  db: PrismaClient;
  /** The process's metrics registry, for metrics of its own beside the shell's. */
  registry: Registry;
  /**
   * The queue of a contract, one per queue name, closed by the shell. A process that adds jobs
   * (`enqueues`) adds them here, over its producer connection.
   */
  queue: (contract: JobContract) => Queue;
}

export interface QueueWorkerOptions {
  /** The app's name: in logs, metrics and its Postgres application_name. */
  name: string;
  config: QueueWorkerConfig;
  /** Port of the small HTTP server that answers /healthz, /readyz and /metrics. */
  port: number;
  logger: Logger;
  /**
   * Whether the process adds jobs too: it then has a producer connection (an add or a scrape
   * while Redis is away fails fast), which its queues and the readiness check use.
   */
  enqueues?: boolean;
  /**
   * The queues the process works, made once its connections are up; anything to prepare before a
   * job runs (a job scheduler, say) is done here.
   */
  workers: (resources: QueueWorkerResources) => QueueJobWorker[] | Promise<QueueJobWorker[]>;
}

/**
 * A worker process, whole: each queue's jobs handled by its spec (./job-worker.ts), its Postgres
 * and Redis connections, the hourly prune of processed-job markers where a processor claims
 * them, and /healthz, /readyz and /metrics (the process's defaults, and the job metrics and queue
 * depths of ./job-metrics.ts). `close()` stops in order: readiness answers 503, jobs in progress
 * finish (new ones stay queued), then the health server, the queues, Redis and Postgres close.
 */
export async function startQueueWorker(
  options: QueueWorkerOptions,
): Promise<Service & { port: number; queue: QueueWorkerResources['queue'] }> {
  const { name, config, logger } = options;
  const db = createPrismaClient(config, name);
  const onError = (err: unknown) => logger.error({ err }, 'redis connection error');
  const target = { redisUrl: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES, onError };
  const redis = createWorkerConnection(target);
  const producer = options.enqueues ? createProducerConnection(target) : undefined;
  const registry = createMetricsRegistry(name);
  const jobMetrics = createJobMetrics(registry);
  // Without a producer, queues only read their depth at scrape time, over the worker's own
  // connection (BullMQ's blocking reads use a connection of their own); a scrape waits at most a
  // second for it.
  const queues = new Map<string, Queue>();
  const queueAt = (contract: JobContract, prefix: string) => {
    const id = `${prefix}:${contract.queue}`;
    let made = queues.get(id);
    if (!made) {
      made = createQueue(contract, producer ?? redis, prefix);
      queues.set(id, made);
    }
    return made;
  };
  const queue = (contract: JobContract) => queueAt(contract, config.QUEUE_PREFIX);
  const shards = config.QUEUE_SHARDS ?? 1;
  const consumed = config.QUEUE_SHARDS_CONSUMED ?? Array.from({ length: shards }, (_, shard) => shard);
  // A sharded queue is worked once per consumed shard, each shard a queue of its own hash tag.
  const prefixesOf = (contract: JobContract) =>
    isShardedQueue(contract)
      ? consumed.map((shard) => shardPrefix(config.QUEUE_PREFIX, shard, shards))
      : [config.QUEUE_PREFIX];

  const specs = await options.workers({ db, registry, queue });
  const lockMs = config.JOB_LOCK_SECONDS === undefined ? undefined : config.JOB_LOCK_SECONDS * 1000;
  const workers = specs.flatMap((spec) =>
    prefixesOf(spec.contract).map((prefix) => {
      queueAt(spec.contract, prefix); // every queue worked, for its depth
      return spec.create({ connection: redis, prefix, lockMs, logger, jobMetrics });
    }),
  );
  watchQueueDepth(registry, [...queues.values()]);

  let closing = false;
  const server = await startHealthServer({
    registry,
    checks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(producer ?? redis) },
    ],
    isClosing: () => closing,
    port: options.port,
    host: config.HOST,
    logger,
  });
  for (const worker of workers) worker.run().catch((err: unknown) => logger.error({ err }, 'queue consumer stopped'));
  // Housekeeping: markers outlive every retry, then go; every replica may prune, harmlessly.
  const pruneTimers = specs
    .filter((spec) => spec.claimsProcessedJobs)
    .map((spec) => {
      const prune = processedJobsPruneTask(db, spec.contract.queue);
      const timer = setInterval(() => {
        prune.run().catch((err: unknown) => logger.error({ err, task: prune.name }, 'periodic task failed'));
      }, prune.everyMs);
      timer.unref();
      return timer;
    });
  logger.info(
    { port: server.port, queues: specs.map((spec) => spec.contract.queue), shards, consumedShards: consumed },
    `${name} started`,
  );
  return {
    port: server.port,
    queue,
    close: closeOnce(async () => {
      closing = true;
      for (const timer of pruneTimers) clearInterval(timer);
      await Promise.all(workers.map((worker) => worker.close())); // finish in-flight jobs
      await server.close();
      await Promise.all([...queues.values()].map((made) => made.close()));
      await closeRedisConnection(redis);
      if (producer) await closeRedisConnection(producer);
      await db.$disconnect();
    }),
  };
}
