import type { ReadApiConfig } from '@vt/config';
import { type ApiContact, DEFAULT_API_CONTACT } from '@vt/contracts';
import type { Logger } from '@vt/logger';
import { apiKeyRevocationVersion } from '@vt/redis';
import { lagTolerantReader, startHttpService } from '@vt/service-runtime';
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
      // /v1's data tolerates seconds of lag (its answers are cached for seconds anyway); API keys
      // stay on the primary: a key made or revoked a moment ago must count at once.
      const reader = lagTolerantReader(config, db, 'read-api', registry, logger);
      return {
        close: reader.close,
        app: buildReadApi({
          logger,
          registry,
          readinessChecks,
          isClosing,
          contact: apiContactOf(config),
          corsOrigins: config.READ_API_CORS_ORIGINS,
          routes: v1Routes(reader),
          authenticator: createApiKeyAuthenticator(db, {
            cacheTtlMs: config.API_KEY_CACHE_TTL_MS,
            onLastUsedError: (err) => logger.warn({ err }, 'could not record an API key’s last use'),
            revocationVersion: () => apiKeyRevocationVersion(redis, config.QUEUE_PREFIX),
            onRevocationCheckError: (err) =>
              logger.warn({ err }, 'could not read the API key revocation version; cached keys kept for their TTL'),
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
