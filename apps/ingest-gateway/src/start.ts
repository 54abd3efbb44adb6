import type { IngestGatewayConfig } from '@vt/config';
import { createPrismaClient } from '@vt/db';
import { createDeliveryLogWriter } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { crawlBatchJob, createQueue, leadJob } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import {
  closeOnce,
  createMetricsRegistry,
  pingPostgres,
  pingRedis,
  type Service,
  startHttpServer,
} from '@vt/service-runtime';
import { buildIngestGateway } from './app.ts';
import { loadCrawlerRangeCache } from './crawl/crawler-ip-ranges.ts';
import { cachedPropertyLookup } from './property-cache.ts';

export async function startIngestGateway(
  config: IngestGatewayConfig,
  logger: Logger,
): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'ingest-gateway');
  const redis = createProducerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  const crawlQueue = createQueue(crawlBatchJob, redis, config.QUEUE_PREFIX);
  const leadQueue = createQueue(leadJob, redis, config.QUEUE_PREFIX);
  const queues = [crawlQueue, leadQueue];
  const crawlerRanges = await loadCrawlerRangeCache(db, logger, config.CRAWLER_RANGES_REFRESH_SECONDS * 1000);
  // Webhook answers and un-keyed crawl batches do not wait for their log rows, so those rows may
  // gather for 100 ms: fewer, larger INSERTs. A named crawl batch waits for its row (a quick
  // repeat must find it), so awaited rows go within the writer's default 2 ms.
  const deliveryLog = createDeliveryLogWriter(db, { submitDelayMs: 100 });
  let closing = false;
  const registry = createMetricsRegistry('ingest-gateway');
  const app = buildIngestGateway({
    logger,
    crawlIngest: {
      db,
      deliveryLog,
      queue: crawlQueue,
      logger,
      crawlTokenSecret: config.CRAWL_TOKEN_SECRET,
      limits: { maxWireBytes: config.CRAWL_MAX_BODY_BYTES, maxInflatedBytes: config.CRAWL_MAX_INFLATED_BYTES },
      ipVerifier: crawlerRanges.current,
      registry,
    },
    leadWebhook: {
      properties: cachedPropertyLookup(db),
      deliveryLog,
      queue: leadQueue,
      redis,
      keyPrefix: config.QUEUE_PREFIX,
      logger,
      signingKey: config.WEBHOOK_SIGNING_KEY,
    },
    registry,
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
      crawlerRanges.stop();
      await server.close(); // stop intake; in-flight requests finish and enqueue
      await deliveryLog.flush(); // answers go out before their log rows are written: write every one
      await Promise.all(queues.map((q) => q.close()));
      await closeRedisConnection(redis);
      await db.$disconnect();
    }),
  };
}
