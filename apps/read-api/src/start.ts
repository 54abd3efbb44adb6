import type { ReadApiConfig } from '@vt/config';
import { readEndpoints } from '@vt/contracts';
import { createPrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import {
  closeOnce,
  createMetricsRegistry,
  pingPostgres,
  pingRedis,
  type Service,
  startHttpServer,
} from '@vt/service-runtime';
import { createAnswerCache } from './answer-cache.ts';
import { createApiKeyAuthenticator } from './api-key-auth.ts';
import { buildReadApi } from './app.ts';
import { createReadRateLimiter } from './rate-limiter.ts';
import { createReadOperations } from './read-operations.ts';
import type { ReadRoute } from './v1-router.ts';

/** Every catalogued endpoint with the operation that answers it. */
export function standardReadRoutes(operations: ReturnType<typeof createReadOperations>): ReadRoute[] {
  return Object.entries(readEndpoints).map(([id, endpoint]) => ({
    endpoint,
    operation: operations[id as keyof typeof readEndpoints],
  }));
}

export async function startReadApi(config: ReadApiConfig, logger: Logger): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'read-api');
  // Rate-limit counters are shared through Redis; commands fail fast when it is away.
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
    routes: standardReadRoutes(createReadOperations(db)),
    authenticator: createApiKeyAuthenticator(db, { cacheTtlMs: config.API_KEY_CACHE_TTL_MS }),
    answerCache: createAnswerCache({
      ttlMs: config.READ_CACHE_TTL_MS,
      maxBytes: config.READ_CACHE_MAX_MB * 1024 * 1024,
    }),
    rateLimiter: createReadRateLimiter({
      redis,
      keyPrefix: config.QUEUE_PREFIX,
      limitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    }),
    now: () => new Date(),
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
