import type { ReadApiConfig } from '@vt/config';
import { createPrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { closeRedisConnection, createProducerConnection } from '@vt/queue';
import {
  closeOnce,
  createMetricsRegistry,
  pingPostgres,
  pingRedis,
  type Service,
  startHttpServer,
} from '@vt/service-runtime';
import { buildReadApi } from './app.ts';

export async function startReadApi(config: ReadApiConfig, logger: Logger): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'read-api');
  // Rate-limit counters and key revocations are shared through Redis; fail fast when it is away.
  const redis = createProducerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  let closing = false;
  const app = buildReadApi({
    logger,
    registry: createMetricsRegistry('read-api'),
    readinessChecks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(redis) },
    ],
    isClosing: () => closing,
  });
  const server = await startHttpServer(app, config.READ_API_PORT, config.HOST);
  logger.info({ port: server.port }, 'read api listening');
  return {
    port: server.port,
    close: closeOnce(async () => {
      closing = true;
      await server.close();
      await closeRedisConnection(redis);
      await db.$disconnect();
    }),
  };
}
