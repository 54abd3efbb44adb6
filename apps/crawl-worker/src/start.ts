import type { CrawlWorkerConfig } from '@vt/config';
import { createPrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { closeRedisConnection, createWorkerConnection } from '@vt/queue';
import { pingPostgres, pingRedis, type Service, startWorkerService } from '@vt/service-runtime';

export async function startCrawlWorker(config: CrawlWorkerConfig, logger: Logger): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'crawl-worker');
  const redis = createWorkerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
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
    consumers: [],
    closeResources: async () => {
      await closeRedisConnection(redis);
      await db.$disconnect();
    },
  });
}
