import type { LeadWorkerConfig } from '@vt/config';
import { createPrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { closeRedisConnection, createWorkerConnection } from '@vt/queue';
import { pingPostgres, pingRedis, type Service, startWorkerService } from '@vt/service-runtime';

export async function startLeadWorker(config: LeadWorkerConfig, logger: Logger): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'lead-worker');
  const redis = createWorkerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  return startWorkerService({
    name: 'lead-worker',
    logger,
    host: config.HOST,
    port: config.LEAD_WORKER_METRICS_PORT,
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
