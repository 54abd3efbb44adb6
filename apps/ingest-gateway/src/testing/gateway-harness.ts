import { deriveCrawlToken } from '@vt/credentials';
import type { Plan, Property } from '@vt/db';
import { crawlConnectionStatus, createDeliveryLogWriter, recentDeliveries } from '@vt/delivery-log';
import { createLogger } from '@vt/logger';
import {
  type CrawlBatchJobData,
  crawlBatchJob,
  createShardedQueue,
  type LeadJobData,
  leadJob,
  type Queue,
} from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { createMetricsRegistry, type ReadinessCheck } from '@vt/service-runtime';
import { isolatedQueuePrefix, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { buildIngestGateway } from '../app.ts';
import type { IpVerifier } from '../crawl/batch-classifier.ts';
import type { CrawlIngestDeps } from '../crawl/crawl-ingest.route.ts';
import { createFailedAuthLimiter, type FailedAuthLimits } from '../failed-auth-limiter.ts';
import type { LeadWebhookDeps } from '../leads/lead-webhook.route.ts';
import { cachedPropertyLookup } from '../property-lookup.ts';

/**
 * The real gateway app (supertest drives it) over the real Postgres and a real BullMQ queue on a
 * prefix of its own, so a test sees exactly the jobs it caused.
 */
export interface GatewayHarnessOptions {
  crawl?: Partial<CrawlIngestDeps>;
  leads?: Partial<LeadWebhookDeps>;
  readinessChecks?: ReadinessCheck[];
  isClosing?: () => boolean;
  /** The delivery-log writer's batching, e.g. a long maxDelayMs to see what an answer does not wait for. */
  deliveryLog?: Parameters<typeof createDeliveryLogWriter>[1];
  /** The failed-attempt limits; the gateway's defaults when absent. */
  failedAuthLimits?: FailedAuthLimits;
}

export async function createGatewayHarness(options: GatewayHarnessOptions = {}) {
  const db = testDb();
  const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
  const prefix = isolatedQueuePrefix();
  // One shard: the harness's queues are exactly its prefix's, as with QUEUE_SHARDS=1.
  const crawlShards = createShardedQueue(crawlBatchJob, redis, prefix, 1);
  const leadShards = createShardedQueue(leadJob, redis, prefix, 1);
  const [queue] = crawlShards.shards as [Queue];
  const [leadQueue] = leadShards.shards as [Queue];
  let verifier: IpVerifier = { verify: (_op, ip) => (ip ? 'unverified' : 'unverifiable') };
  const logger = createLogger({ name: 'ingest-gateway', level: 'silent' });
  const registry = createMetricsRegistry('ingest-gateway');
  const deliveryLog = createDeliveryLogWriter(db, options.deliveryLog);
  const failedAuth = createFailedAuthLimiter({ redis, keyPrefix: prefix, limits: options.failedAuthLimits });
  const app = buildIngestGateway({
    logger,
    registry,
    readinessChecks: options.readinessChecks ?? [],
    isClosing: options.isClosing ?? (() => false),
    leadWebhook: {
      properties: cachedPropertyLookup(db, 0),
      deliveryLog,
      failedAuth,
      queue: leadShards,
      redis,
      keyPrefix: prefix,
      logger,
      signingKey: testEnv.WEBHOOK_SIGNING_KEY,
      registry,
      ...options.leads,
    },
    crawlIngest: {
      db,
      deliveryLog,
      failedAuth,
      queue: crawlShards,
      redis,
      keyPrefix: prefix,
      logger,
      crawlTokenSecret: testEnv.CRAWL_TOKEN_SECRET,
      limits: { maxWireBytes: 8 * 1024 * 1024, maxInflatedBytes: 64 * 1024 * 1024 },
      ipVerifier: () => verifier,
      registry,
      ...options.crawl,
    },
  });

  async function createProperty(options: { plan?: Plan; domain?: string; lapsed?: boolean } = {}) {
    const slug = uniqueSlug('gw');
    const team = await db.team.create({ data: { name: slug, slug } });
    const property = await db.property.create({
      data: {
        teamId: team.id,
        name: slug,
        domain: options.domain ?? 'example.com',
        plan: options.plan ?? 'growth',
        subscriptionStatus: options.lapsed ? 'lapsed' : 'active',
        brandTerms: [slug],
      },
    });
    return { property, token: tokenOf(property) };
  }

  function tokenOf(property: Pick<Property, 'id' | 'crawlTokenVersion'>) {
    return deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion);
  }

  /** Every job this harness's queue holds, oldest first. */
  async function jobs(): Promise<CrawlBatchJobData[]> {
    const all = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    return all.sort((a, b) => a.timestamp - b.timestamp).map((j) => j.data as CrawlBatchJobData);
  }

  /** Every lead job this harness's queue holds, oldest first. */
  async function leadJobs(): Promise<LeadJobData[]> {
    const all = await leadQueue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    return all.sort((a, b) => a.timestamp - b.timestamp).map((j) => j.data as LeadJobData);
  }

  /** The crawl-batch jobs of one property, oldest first. */
  async function jobsOf(propertyId: string) {
    return (await jobs()).filter((j) => j.propertyId === propertyId);
  }

  /** The crawl delivery log of one property, once every row the answers so far handed to the writer is written. */
  async function crawlRowsOf(propertyId: string) {
    await deliveryLog.flush();
    return recentDeliveries(db, propertyId, 'crawl');
  }

  return {
    app,
    jobsOf,
    /** Every kept event queued for one property. */
    keptOf: async (propertyId: string) => (await jobsOf(propertyId)).flatMap((j) => j.events),
    crawlRowsOf,
    /** The property's crawl connection status, from its delivery log as written so far. */
    crawlStatusOf: async (propertyId: string) => {
      const property = await db.property.findUniqueOrThrow({ where: { id: propertyId } });
      return crawlConnectionStatus({
        ingestionEnabled: property.crawlIngestionEnabled,
        statusSince: property.crawlStatusSince,
        attempts: await crawlRowsOf(propertyId),
        now: new Date(),
      });
    },
    /** The app's metrics registry (what GET /metrics serves). */
    registry,
    db,
    queue,
    leadQueue,
    leadJobs,
    redis,
    /** The Redis key prefix of this harness's queues and remembered webhook answers. */
    keyPrefix: prefix,
    createProperty,
    tokenOf,
    jobs,
    /**
     * Waits until every delivery-log row handed over so far is written. The gateway answers before
     * its rows are written, so a test reads the log after this.
     */
    flushDeliveryLog: () => deliveryLog.flush(),
    setVerifier: (next: IpVerifier) => {
      verifier = next;
    },
    close: async () => {
      await deliveryLog.flush();
      for (const q of [queue, leadQueue]) {
        await q.obliterate({ force: true }).catch(() => {});
        await q.close();
      }
      await closeRedisConnection(redis);
    },
  };
}
