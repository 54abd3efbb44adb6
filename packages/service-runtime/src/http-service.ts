import { createPrismaClient, type DatabaseConfig, type PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { closeRedisConnection, createProducerConnection, type RedisClusterNode, type RedisConnection } from '@vt/redis';
import type { Express } from 'express';
import type { Registry } from 'prom-client';
import { closeOnce } from './boot.ts';
import { pingPostgres, pingRedis } from './dependency-checks.ts';
import type { ReadinessCheck } from './health.ts';
import { startHttpServer } from './http-server.ts';
import type { Service } from './lifecycle.ts';
import { createMetricsRegistry } from './metrics.ts';

/** What every HTTP service reads from its config. */
export interface HttpServiceConfig extends DatabaseConfig {
  HOST: string;
  REDIS_URL: string;
  /** Set: Redis is a cluster reached through these seed nodes. */
  REDIS_CLUSTER_NODES?: RedisClusterNode[];
}

/** What a service's app is built over: the process's connections and its health facts. */
export interface HttpServiceResources {
  db: PrismaClient;
  /** Fails fast while Redis is away, so a request answers rather than hangs. */
  redis: RedisConnection;
  registry: Registry;
  /** Postgres and Redis, for the app's /readyz. */
  readinessChecks: ReadinessCheck[];
  /** True once shutdown has begun: /readyz then answers 503. */
  isClosing: () => boolean;
}

export interface HttpServiceOptions {
  /** The app's name: in logs, metrics and its Postgres application_name. */
  name: string;
  config: HttpServiceConfig;
  port: number;
  logger: Logger;
  /**
   * Builds the app (which serves /healthz, /readyz and /metrics from the resources). `close`
   * releases what the app added (queues, writers, timers) once intake has stopped, before Redis
   * and Postgres close.
   */
  build: (resources: HttpServiceResources) => Promise<{ app: Express; close?: () => Promise<void> }>;
}

/**
 * An HTTP service process, whole: its Postgres and Redis connections, its app listening on
 * `port`. `close()` stops in order: readiness answers 503, the server stops taking connections
 * and lets requests in flight finish, the app's own close runs, then Redis and Postgres close.
 */
export async function startHttpService(options: HttpServiceOptions): Promise<Service & { port: number }> {
  const { name, config, logger } = options;
  const db = createPrismaClient(config, name);
  const redis = createProducerConnection({
    redisUrl: config.REDIS_URL,
    clusterNodes: config.REDIS_CLUSTER_NODES,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  let closing = false;
  const { app, close } = await options.build({
    db,
    redis,
    registry: createMetricsRegistry(name),
    readinessChecks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(redis) },
    ],
    isClosing: () => closing,
  });
  const server = await startHttpServer(app, options.port, config.HOST);
  logger.info({ port: server.port }, `${name} listening`);
  return {
    port: server.port,
    close: closeOnce(async () => {
      closing = true;
      await server.close();
      await close?.();
      await closeRedisConnection(redis);
      await db.$disconnect();
    }),
  };
}
