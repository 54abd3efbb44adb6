import { type DatabaseConfig, type PrismaClient, replicaSqlReader, type SqlReader, sqlReaderOf } from '@vt/db';
import type { Logger } from '@vt/logger';
import { Counter, type Registry } from 'prom-client';

/**
 * Where an app's reads that tolerate seconds of lag go: the replica READ_DATABASE_URL names, with
 * the primary taking them while it cannot (see `replicaSqlReader`), or the primary alone when unset.
 * One outage is logged once; each read the primary takes in the replica's place is counted in
 * `vt_read_replica_fallbacks_total`. `close` ends the replica's pool.
 */
export function lagTolerantReader(
  config: DatabaseConfig & { READ_DATABASE_URL?: string },
  db: PrismaClient,
  name: string,
  registry: Registry,
  logger: Logger,
): SqlReader & { close?: () => Promise<void> } {
  // Exported without a replica too (it stays 0), so an alert or a dashboard reads it everywhere.
  const fallbacks = new Counter({
    name: 'vt_read_replica_fallbacks_total',
    help: 'Reads meant for the read replica (READ_DATABASE_URL) that the primary answered because the replica could not',
    registers: [registry],
  });
  if (!config.READ_DATABASE_URL) return sqlReaderOf(db);
  return replicaSqlReader(db, { ...config, READ_DATABASE_URL: config.READ_DATABASE_URL }, name, {
    onReplicaDown: (err) => logger.warn({ err }, 'read replica unavailable: reading the primary'),
    onReplicaBack: () => logger.info('read replica answering again'),
    onFallback: () => fallbacks.inc(),
  });
}
