import type { IngestGatewayConfig } from '@vt/config';
import { createPrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { closeRedisConnection, crawlBatchJob, createProducerConnection, createQueue, leadJob } from '@vt/queue';
import {
  closeOnce,
  createMetricsRegistry,
  pingPostgres,
  pingRedis,
  type Service,
  startHttpServer,
} from '@vt/service-runtime';
import { buildIngestGateway } from './app.ts';

export async function startIngestGateway(
  config: IngestGatewayConfig,
  logger: Logger,
): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'ingest-gateway');
  const redis = createProducerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  const queues = [crawlBatchJob, leadJob].map((contract) => createQueue(contract, redis, config.QUEUE_PREFIX));
  let closing = false;
  const app = buildIngestGateway({
    logger,
    registry: createMetricsRegistry('ingest-gateway'),
    readinessChecks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(redis) },
    ],
    isClosing: () => closing,
  });
  const server = await startHttpServer(app, config.INGEST_GATEWAY_PORT, config.HOST);
  logger.info({ port: server.port }, 'ingest gateway listening');
  return {
    port: server.port,
    close: closeOnce(async () => {
      closing = true;
      await server.close(); // stop intake; in-flight requests finish and enqueue
      await Promise.all(queues.map((q) => q.close()));
      await closeRedisConnection(redis);
      await db.$disconnect();
    }),
  };
}
