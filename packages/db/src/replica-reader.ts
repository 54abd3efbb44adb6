import pg from 'pg';
import type { DatabaseConfig } from './client.ts';
import type { Prisma, PrismaClient } from './generated/prisma/client.ts';
import { type SqlReader, sqlReaderOf } from './sql-reader.ts';

/**
 * After the replica failed to answer, how long reads go straight to the primary before the
 * replica is tried again: a replica that is down (or whose address drops packets) then costs one
 * failed connection every few seconds, not a connect timeout on every request.
 */
export const REPLICA_RETRY_MS = 5000;

/**
 * Whether an error says the replica could not serve the query, rather than that the query is
 * wrong: no SQLSTATE (refused, reset, timed out connecting, the connection ended), a connection
 * exception (08), the server shutting down or starting (57P01-57P03), too many connections
 * (53300), or a query cancelled by a conflict with WAL replay (40001 on a standby). A bad query
 * or a statement timeout is the query's own failure and fails on the primary too, so it is not
 * retried there.
 */
export function isReplicaUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '40001'].includes(code);
}

export interface ReplicaReaderEvents {
  /** The replica stopped answering (once per outage, not per query). */
  onReplicaDown?: (err: unknown) => void;
  /** The replica answered again after an outage. */
  onReplicaBack?: () => void;
  /** A query went to the primary because the replica could not take it. */
  onFallback?: () => void;
}

/**
 * Reads on a streaming replica (READ_DATABASE_URL) with the primary as the fallback: the rule for
 * reads that tolerate seconds of lag. While the replica cannot be reached, each read goes to the
 * primary, which served every read before a replica existed, so a replica outage costs the
 * primary load, not the API's availability. Writes, and reads that must see the caller's own
 * write, never come here: they use the primary's client.
 */
export function replicaSqlReader(
  primary: PrismaClient,
  config: DatabaseConfig & { READ_DATABASE_URL: string },
  applicationName: string,
  events: ReplicaReaderEvents = {},
  now: () => number = Date.now,
): SqlReader & { close(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: config.READ_DATABASE_URL,
    max: config.DATABASE_POOL_MAX,
    connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: config.DATABASE_IDLE_TIMEOUT_MS,
    statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
    application_name: `${applicationName}-replica`,
  });
  pool.on('error', () => {}); // an idle connection that broke is dropped; the next query reports
  const fallback = sqlReaderOf(primary);
  let downUntil = 0;
  let down = false;
  return {
    async rows<Row>(query: Prisma.Sql): Promise<Row[]> {
      if (now() < downUntil) {
        events.onFallback?.();
        return fallback.rows<Row>(query);
      }
      try {
        const result = await pool.query({ text: query.text, values: query.values as unknown[] });
        if (down) {
          down = false;
          events.onReplicaBack?.();
        }
        return result.rows as Row[];
      } catch (err) {
        if (!isReplicaUnavailable(err)) throw err;
        downUntil = now() + REPLICA_RETRY_MS;
        if (!down) {
          down = true;
          events.onReplicaDown?.(err);
        }
        events.onFallback?.();
        return fallback.rows<Row>(query);
      }
    },
    close: () => pool.end(),
  };
}
