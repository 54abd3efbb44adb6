import type { CrawlWorkerConfig } from '@vt/config';
import { createPrismaClient, processedJobsPruneTask } from '@vt/db';
import type { Logger } from '@vt/logger';
import { crawlBatchJob, createJobWorker } from '@vt/queue';
import { closeRedisConnection, createWorkerConnection } from '@vt/redis';
import { pingPostgres, pingRedis, type Service, startWorkerService } from '@vt/service-runtime';
import { processCrawlBatch } from './jobs/crawl-batch.ts';

const MS_PER_HOUR = 3_600_000;

export async function startCrawlWorker(config: CrawlWorkerConfig, logger: Logger): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'crawl-worker');
  const redis = createWorkerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  const rawEventRetentionMs = config.CRAWL_EVENT_RETENTION_HOURS * MS_PER_HOUR;
  const crawlBatches = createJobWorker({
    contract: crawlBatchJob,
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.CRAWL_WORKER_CONCURRENCY,
    handle: async (data, job) => {
      const outcome = await processCrawlBatch(data, { db, rawEventRetentionMs });
      // Ids and counts only: event contents (paths, user agents, referers) stay out of the logs.
      const fields = { jobId: job.id, batchId: data.batchId, propertyId: data.propertyId, events: data.events.length };
      if (outcome.applied) logger.debug(fields, 'crawl batch applied');
      else logger.info({ ...fields, reason: outcome.reason }, 'crawl batch skipped');
    },
    onUnknownJob: (job) => logger.warn({ jobId: job.id, jobName: job.name }, 'unknown job on the crawl-batch queue'),
  });
  return startWorkerService({
    name: 'crawl-worker',
    logger,
    host: config.HOST,
    port: config.CRAWL_WORKER_METRICS_PORT,
    readinessChecks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(redis) },
    ],
    // A failed job's log line gives its batch size only, never the events.
    consumers: [{ consumer: crawlBatches, label: 'crawl-batch', jobFields: (data) => ({ events: eventCount(data) }) }],
    periodicTasks: [processedJobsPruneTask(db, crawlBatchJob.queue)],
    closeResources: async () => {
      await closeRedisConnection(redis);
      await db.$disconnect();
    },
  });
}

/** The batch size of a job whose payload may not have parsed. */
function eventCount(data: unknown): number | undefined {
  const events = (data as { events?: unknown } | undefined)?.events;
  return Array.isArray(events) ? events.length : undefined;
}
