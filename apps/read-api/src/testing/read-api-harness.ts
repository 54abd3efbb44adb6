import { type PrismaClient, sqlReaderOf } from '@vt/db';
import { createLogger, type Logger } from '@vt/logger';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { createMetricsRegistry } from '@vt/service-runtime';
import { isolatedQueuePrefix, testDb, testEnv } from '@vt/test-support';
import { createAnswerCache } from '../answer-cache.ts';
import { createApiKeyAuthenticator } from '../api-key-auth.ts';
import { buildReadApi } from '../app.ts';
import { v1Routes } from '../endpoints/index.ts';
import { createReadRateLimiter } from '../rate-limiter.ts';
import { type ReadRoute, readRoute } from '../read-route.ts';

export interface ReadApiHarnessOptions {
  /** The database to serve from: the run's by default, or a test file's own (scratchDatabase). */
  db?: PrismaClient;
  /** Requests per minute per key; tests that are not about the limit leave it high. */
  rateLimitPerMinute?: number;
  /** How long a looked-up key is trusted, in ms (1 by default; 0 would mean forever, as in lru-cache). */
  cacheTtlMs?: number;
  /** Routes beyond the catalogue's, e.g. a deprecated one that exists only in a test. */
  extraRoutes?: ReadRoute[];
  /** How long an answer is reused; 0 (the default here) so every test reads fresh rows. */
  answerCacheTtlMs?: number;
  /** The API's clock: "today" for default date ranges. */
  now?: Date;
  /**
   * Redis prefix of the rate limiter; pass another harness's `prefix` to build a second replica
   * that shares its budgets. A fresh isolated prefix when omitted.
   */
  prefix?: string;
  /** READ_API_CORS_ORIGINS; none by default. */
  corsOrigins?: string[];
  /** Where the app logs; silent by default. */
  logger?: Logger;
}

/**
 * The real read API app (supertest drives it) over the real Postgres, with its rate limiter on a
 * Redis prefix of its own so no other file's requests count against a test's keys.
 */
export function createReadApiHarness(options: ReadApiHarnessOptions = {}) {
  const db = options.db ?? testDb();
  const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
  const prefix = options.prefix ?? isolatedQueuePrefix();
  const logger = options.logger ?? createLogger({ name: 'read-api', level: 'silent' });
  let now = options.now ?? new Date();
  const keys = createApiKeyAuthenticator(db, { cacheTtlMs: options.cacheTtlMs ?? 1 });
  let authentications = 0;
  const app = buildReadApi({
    logger,
    registry: createMetricsRegistry('read-api'),
    readinessChecks: [],
    isClosing: () => false,
    corsOrigins: options.corsOrigins,
    routes: [
      ...v1Routes(sqlReaderOf(db)),
      ...(options.extraRoutes ?? []).map((route) => readRoute(route.endpoint, route.operation)),
    ],
    // Counted, so a test can tell an answer given without reading the key.
    authenticator: {
      authenticate: (authorization) => {
        authentications++;
        return keys.authenticate(authorization);
      },
    },
    answerCache: createAnswerCache({ ttlMs: options.answerCacheTtlMs ?? 0, maxBytes: 16 * 1024 * 1024 }),
    rateLimiter: createReadRateLimiter({
      redis,
      keyPrefix: prefix,
      limitPerMinute: options.rateLimitPerMinute ?? 100_000,
    }),
    now: () => now,
  });
  return {
    /** How many requests so far had their Authorization header read. */
    authentications: () => authentications,
    app,
    db,
    redis,
    prefix,
    /**
     * Resolves once the rate limiter's Redis connection is up: until then the limiter counts in
     * this process's memory (its fallback), so budgets are not yet shared with other replicas.
     */
    redisReady(): Promise<void> {
      if (redis.status === 'ready') return Promise.resolve();
      return new Promise((resolve) => redis.once('ready', () => resolve()));
    },
    setNow(next: Date) {
      now = next;
    },
    close: () => closeRedisConnection(redis),
  };
}
