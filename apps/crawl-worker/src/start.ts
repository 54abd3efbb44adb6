import type { CrawlWorkerConfig } from '@vt/config';
import type { Logger } from '@vt/logger';
import { crawlBatchJob } from '@vt/queue';
import { jobWorker, startQueueWorker } from '@vt/service-runtime';
import { applyCrawlBatch } from './jobs/crawl-batch.ts';

const MS_PER_HOUR = 3_600_000;

export function startCrawlWorker(config: CrawlWorkerConfig, logger: Logger) {
  const rawEventRetentionMs = config.CRAWL_EVENT_RETENTION_HOURS * MS_PER_HOUR;
  return startQueueWorker({
    name: 'crawl-worker',
    config,
    port: config.CRAWL_WORKER_METRICS_PORT,
    logger,
    workers: ({ db }) => [
      jobWorker({
        contract: crawlBatchJob,
        concurrency: config.CRAWL_WORKER_CONCURRENCY,
        handle: (data) => applyCrawlBatch(data, { db, rawEventRetentionMs }),
        // Ids and counts only: event contents (paths, user agents, referers) stay out of the logs.
        jobFields: (data) => ({
          batchId: data.batchId,
          chunk: data.chunk,
          propertyId: data.propertyId,
          events: data.events.length,
        }),
        claimsProcessedJobs: true,
      }),
    ],
  });
}
