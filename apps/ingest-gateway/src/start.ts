import type { IngestGatewayConfig } from '@vt/config';
import { createDeliveryLogWriter } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { crawlBatchJob, createShardedQueue, leadJob, queueLayoutGate } from '@vt/queue';
import { mastersShortOfReplicas } from '@vt/redis';
import { startHttpService, watchQueueDepth } from '@vt/service-runtime';
import { buildIngestGateway } from './app.ts';
import { loadAgentCatalogueCache } from './crawl/agent-catalogue-cache.ts';
import { crawlConnectionMetrics } from './crawl/crawl-connection-metrics.ts';
import { loadCrawlerRangeCache } from './crawl/crawler-ip-ranges.ts';
import { NAMED_BATCH_DEFAULTS } from './crawl/named-batches.ts';
import { loadSignatureKeysCache } from './crawl/signature-keys-cache.ts';
import { createFailedAuthLimiter } from './failed-auth-limiter.ts';
import { cachedPropertyLookup } from './property-lookup.ts';

export function startIngestGateway(config: IngestGatewayConfig, logger: Logger) {
  return startHttpService({
    name: 'ingest-gateway',
    config,
    port: config.INGEST_GATEWAY_PORT,
    logger,
    build: async ({ db, redis, registry, readinessChecks, isClosing }) => {
      // Nothing is enqueued under a changed QUEUE_SHARDS while the old layout's queues hold jobs.
      const layout = queueLayoutGate(redis, config.QUEUE_PREFIX, config.QUEUE_SHARDS, (from) =>
        logger.info({ from, to: config.QUEUE_SHARDS }, 'queue shard count changed over empty queues'),
      );
      readinessChecks.push({ name: 'queue-layout', check: layout.ready });
      // One queue per shard (QUEUE_SHARDS), all over the one producer connection, which the
      // replicated mode's WAIT must be sent on: it confirms that connection's own writes.
      const crawlQueue = createShardedQueue(crawlBatchJob, redis, config.QUEUE_PREFIX, config.QUEUE_SHARDS, layout);
      const leadQueue = createShardedQueue(leadJob, redis, config.QUEUE_PREFIX, config.QUEUE_SHARDS, layout);
      const queues = [...crawlQueue.shards, ...leadQueue.shards];
      const durability =
        config.REDIS_DURABILITY === 'replicated'
          ? { replicas: config.REDIS_WAIT_REPLICAS, timeoutMs: config.REDIS_WAIT_TIMEOUT_MS }
          : undefined;
      if (durability) warnOfMissingReplicas(redis, durability.replicas, logger);
      // The depth of the queues it fills: a backlog shows here even while no worker runs.
      watchQueueDepth(registry, queues);
      // How many properties are in each crawl connection status, counted at scrape time.
      crawlConnectionMetrics(registry, db);
      const refreshMs = config.CRAWLER_RANGES_REFRESH_SECONDS * 1000;
      const crawlerRanges = await loadCrawlerRangeCache(db, logger, refreshMs);
      const agentCatalogue = await loadAgentCatalogueCache(db, logger, refreshMs);
      const signatureKeys = await loadSignatureKeysCache(db, logger, refreshMs);
      // No answer waits for its log row, so rows may gather for 100 ms: fewer, larger INSERTs.
      const deliveryLog = createDeliveryLogWriter(db, { submitDelayMs: 100 });
      const failedAuth = createFailedAuthLimiter({
        redis,
        keyPrefix: config.QUEUE_PREFIX,
        addressKey: config.CRAWL_TOKEN_SECRET ?? config.WEBHOOK_SIGNING_KEY,
        onRedisError: (err) => logger.warn({ err }, 'failed-attempt limits counted in memory: Redis refused'),
      });
      const app = buildIngestGateway({
        logger,
        crawlIngest: {
          db,
          deliveryLog,
          failedAuth,
          queue: crawlQueue,
          redis,
          durability,
          keyPrefix: config.QUEUE_PREFIX,
          logger,
          crawlTokenSecret: config.CRAWL_TOKEN_SECRET,
          limits: { maxWireBytes: config.CRAWL_MAX_BODY_BYTES, maxInflatedBytes: config.CRAWL_MAX_INFLATED_BYTES },
          namedBatches: {
            ...NAMED_BATCH_DEFAULTS,
            pendingSeconds: config.NAMED_BATCH_PENDING_SECONDS,
            waitMs: config.NAMED_BATCH_WAIT_MS,
          },
          ipVerifier: crawlerRanges.current,
          agentMatcher: agentCatalogue.current,
          signatureVerifier: signatureKeys.current,
          registry,
        },
        leadWebhook: {
          properties: cachedPropertyLookup(db),
          deliveryLog,
          failedAuth,
          queue: leadQueue,
          redis,
          durability,
          keyPrefix: config.QUEUE_PREFIX,
          logger,
          signingKey: config.WEBHOOK_SIGNING_KEY,
          previousSigningKey:
            config.WEBHOOK_SIGNING_KEY_PREVIOUS && config.WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL
              ? { key: config.WEBHOOK_SIGNING_KEY_PREVIOUS, until: config.WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL }
              : undefined,
          registry,
        },
        registry,
        readinessChecks,
        isClosing,
      });
      // Runs once intake has stopped and the requests in flight have finished and enqueued.
      const close = async () => {
        crawlerRanges.stop();
        agentCatalogue.stop();
        signatureKeys.stop();
        await deliveryLog.flush(); // answers go out before their log rows are written: write every one
        await Promise.all(queues.map((queue) => queue.close()));
      };
      return { app, close };
    },
  });
}

/**
 * In the replicated mode, a master with fewer replicas than REDIS_WAIT_REPLICAS answers 503
 * `not_replicated` to every batch and lead: say so once at start, in the log, rather than leave it
 * to the first sender's retries. Not awaited and never fatal: Redis may still be on its way, as
 * the gateway starts without it too.
 */
function warnOfMissingReplicas(redis: Parameters<typeof mastersShortOfReplicas>[0], wanted: number, logger: Logger) {
  mastersShortOfReplicas(redis, wanted).then(
    (short) => {
      if (short.length > 0)
        logger.warn(
          { masters: short, wanted },
          'REDIS_DURABILITY=replicated: these Redis masters have fewer replicas than REDIS_WAIT_REPLICAS, so their batches and leads answer 503 not_replicated until enough replicas connect',
        );
    },
    (err: unknown) => logger.warn({ err }, 'REDIS_DURABILITY=replicated: the replicas could not be counted at start'),
  );
}
