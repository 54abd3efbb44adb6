import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';
import { registerClientPool } from './sql-reader.ts';

export interface DatabaseConfig {
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_IDLE_TIMEOUT_MS: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
}

/**
 * A Prisma client over a pg pool sized and timed from config. The pg defaults are a trap for a
 * service: no connection timeout (a request waits forever for a pooled connection when Postgres
 * is down or the pool is exhausted) and no statement timeout.
 */
export function createPrismaClient(config: DatabaseConfig, applicationName = 'vt'): PrismaClient {
  const pool = new pg.Pool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_MAX,
    connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: config.DATABASE_IDLE_TIMEOUT_MS,
    statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
    application_name: applicationName,
  });
  // An idle connection that breaks (Postgres restarted) is dropped by the pool and the next
  // checkout opens a new one; the query that needs it reports an outage. Without a listener the
  // error would end the process, before the adapter adds its own at Prisma's first query.
  pool.on('error', () => {});
  // The pool is made here rather than by the adapter so `sqlReaderOf` can share it; `$disconnect`
  // still ends it.
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  registerClientPool(client, pool);
  return client;
}
