import type { CrawlWorkerConfig } from '@vt/config';
import { type CrawlEventPartitionMaintenance, crawlEventPartitionsTask, type PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { crawlBatchJob } from '@vt/queue';
import { closeOnce, jobWorker, startQueueWorker } from '@vt/service-runtime';
import { applyCrawlBatch } from './jobs/crawl-batch.ts';

const MS_PER_HOUR = 3_600_000;

export function startCrawlWorker(config: CrawlWorkerConfig, logger: Logger) {
  let partitions: ReturnType<typeof scheduleCrawlEventPartitions> | undefined;
  return startQueueWorker({
    name: 'crawl-worker',
    config,
    port: config.CRAWL_WORKER_METRICS_PORT,
    logger,
    workers: ({ db }) => {
      partitions = scheduleCrawlEventPartitions(db, config.CRAWL_EVENT_RETENTION_HOURS * MS_PER_HOUR, logger);
      return [
        jobWorker({
          contract: crawlBatchJob,
          concurrency: config.CRAWL_WORKER_CONCURRENCY,
          handle: (data) => applyCrawlBatch(data, { db }),
          // Ids and counts only: event contents (paths, user agents, referers) stay out of the logs.
          jobFields: (data) => ({
            batchId: data.batchId,
            chunk: data.chunk,
            propertyId: data.propertyId,
            events: data.events.length,
          }),
          claimsProcessedJobs: true,
        }),
      ];
    },
  }).then((service) => ({
    ...service,
    // The maintenance stops (its run in progress finishing) before the shell closes Postgres.
    close: closeOnce(async () => {
      await partitions?.stop();
      await service.close();
    }),
  }));
}

/**
 * The raw events' partitions, kept by every crawl worker replica: at start, then hourly. Runs are
 * idempotent and made under an advisory lock, so replicas need no election. A failed run is
 * logged and the next one does its work: a batch whose day has no partition goes to the default
 * partition, so intake never waits on this.
 */
function scheduleCrawlEventPartitions(db: PrismaClient, retentionMs: number, logger: Logger) {
  const task = crawlEventPartitionsTask(db, retentionMs);
  let running: Promise<void> = Promise.resolve();
  const runOnce = () => {
    running = running.then(() =>
      task.run().then(
        (outcome: CrawlEventPartitionMaintenance) => {
          if (outcome.created.length || outcome.dropped.length || outcome.expiredDefaultRows) {
            logger.info({ task: task.name, ...outcome }, 'crawl event partitions maintained');
          }
        },
        (err: unknown) => logger.error({ err, task: task.name }, 'periodic task failed'),
      ),
    );
  };
  runOnce();
  const timer = setInterval(runOnce, task.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
