import type { ReadApiConfig } from '@vt/config';
import { type ApiContact, DEFAULT_API_CONTACT } from '@vt/contracts';
import { type PrismaClient, replicaSqlReader, type SqlReader, sqlReaderOf } from '@vt/db';
import type { Logger } from '@vt/logger';
import { startHttpService } from '@vt/service-runtime';
import { Counter, type Registry } from 'prom-client';
import { createAnswerCache } from './answer-cache.ts';
import { createApiKeyAuthenticator } from './api-key-auth.ts';
import { buildReadApi } from './app.ts';
import { v1Routes } from './endpoints/index.ts';
import { createReadRateLimiter } from './rate-limiter.ts';

/** The document's contact: the operator, with the URL and email the deployment configures. */
export function apiContactOf(
  config: Pick<ReadApiConfig, 'READ_API_CONTACT_URL' | 'READ_API_CONTACT_EMAIL'>,
): ApiContact {
  return {
    ...DEFAULT_API_CONTACT,
    ...(config.READ_API_CONTACT_URL ? { url: config.READ_API_CONTACT_URL } : {}),
    ...(config.READ_API_CONTACT_EMAIL ? { email: config.READ_API_CONTACT_EMAIL } : {}),
  };
}

export function startReadApi(config: ReadApiConfig, logger: Logger) {
  return startHttpService({
    name: 'read-api',
    config,
    port: config.READ_API_PORT,
    logger,
    build: async ({ db, redis, registry, readinessChecks, isClosing }) => {
      const reader = dataReader(config, db, registry, logger);
      return {
        close: reader.close,
        app: buildReadApi({
          logger,
          registry,
          readinessChecks,
          isClosing,
          contact: apiContactOf(config),
          routes: v1Routes(reader),
          authenticator: createApiKeyAuthenticator(db, {
            cacheTtlMs: config.API_KEY_CACHE_TTL_MS,
            onLastUsedError: (err) => logger.warn({ err }, 'could not record an API key’s last use'),
          }),
          answerCache: createAnswerCache({
            ttlMs: config.READ_CACHE_TTL_MS,
            maxBytes: config.READ_CACHE_MAX_MB * 1024 * 1024,
          }),
          // Rate-limit counters are shared through Redis; commands fail fast when it is away.
          rateLimiter: createReadRateLimiter({
            redis,
            keyPrefix: config.QUEUE_PREFIX,
            limitPerMinute: config.RATE_LIMIT_PER_MINUTE,
          }),
          now: () => new Date(),
        }),
      };
    },
  });
}

/**
 * Where /v1's data is read: the replica when READ_DATABASE_URL names one (its answers are cached
 * for seconds anyway, so seconds of lag change nothing a client can rely on), else the primary.
 * API keys stay on the primary: a key made or revoked a moment ago must count at once.
 */
function dataReader(
  config: ReadApiConfig,
  db: PrismaClient,
  registry: Registry,
  logger: Logger,
): SqlReader & { close?: () => Promise<void> } {
  if (!config.READ_DATABASE_URL) return sqlReaderOf(db);
  const fallbacks = new Counter({
    name: 'vt_read_replica_fallbacks_total',
    help: 'Reads meant for the replica (READ_DATABASE_URL) that the primary answered because the replica could not',
    registers: [registry],
  });
  return replicaSqlReader(db, { ...config, READ_DATABASE_URL: config.READ_DATABASE_URL }, 'read-api', {
    onReplicaDown: (err) => logger.warn({ err }, 'read replica unavailable: reading the primary'),
    onReplicaBack: () => logger.info('read replica answering again'),
    onFallback: () => fallbacks.inc(),
  });
}
