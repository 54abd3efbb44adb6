import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Prisma } from './generated/prisma/client.ts';
import { isReplicaUnavailable, REPLICA_RETRY_MS, replicaSqlReader } from './replica-reader.ts';
import { runDatabase, runDatabaseUrl } from './testing/run-database.ts';

// The fallback rule of the replica reader, on real connections: a replica that refuses
// connections (a loopback port nobody listens on) sends reads to the primary and is left alone
// for REPLICA_RETRY_MS; a query's own error is not retried on the primary. The replica itself, and
// the read API over it, are tested on a real streaming replica in apps/read-api.

const db = runDatabase();
const config = {
  DATABASE_POOL_MAX: 2,
  DATABASE_CONNECT_TIMEOUT_MS: 2000,
  DATABASE_IDLE_TIMEOUT_MS: 1000,
  DATABASE_STATEMENT_TIMEOUT_MS: 5000,
};
const readers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(readers.map((r) => r.close())));

const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('replicaSqlReader', () => {
  it('reads the primary while the replica refuses connections, tries it again after REPLICA_RETRY_MS, and says so once', async () => {
    const url = new URL(runDatabaseUrl);
    url.port = String(await closedPort());
    let clock = 1_000_000;
    const seen = { down: 0, fallbacks: 0 };
    const reader = replicaSqlReader(
      db,
      { ...config, DATABASE_URL: runDatabaseUrl, READ_DATABASE_URL: url.toString() },
      'replica-test',
      { onReplicaDown: () => seen.down++, onFallback: () => seen.fallbacks++ },
      () => clock,
    );
    readers.push(reader);
    const one = Prisma.sql`SELECT current_database() AS name`;
    const primaryName = new URL(runDatabaseUrl).pathname.slice(1);
    expect(await reader.rows(one)).toEqual([{ name: primaryName }]);
    expect(await reader.rows(one)).toEqual([{ name: primaryName }]);
    expect(seen).toEqual({ down: 1, fallbacks: 2 });
    clock += REPLICA_RETRY_MS; // tried again: refused again, still one outage
    expect(await reader.rows(one)).toEqual([{ name: primaryName }]);
    expect(seen).toEqual({ down: 1, fallbacks: 3 });
  });

  it("a query's own error (a missing table) fails as it is, with no second try on the primary", async () => {
    let fallbacks = 0;
    const reader = replicaSqlReader(
      db,
      { ...config, DATABASE_URL: runDatabaseUrl, READ_DATABASE_URL: runDatabaseUrl },
      'replica-test',
      { onFallback: () => fallbacks++ },
    );
    readers.push(reader);
    await expect(reader.rows(Prisma.sql`SELECT * FROM no_such_table`)).rejects.toMatchObject({ code: '42P01' });
    expect(fallbacks).toBe(0);
  });

  it('tells unavailability from a failed query by SQLSTATE', () => {
    for (const err of [
      Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
      new Error('timeout exceeded when trying to connect'),
      { code: '57P03' },
      { code: '08006' },
      { code: '40001' },
    ]) {
      expect(isReplicaUnavailable(err), JSON.stringify(err)).toBe(true);
    }
    for (const code of ['42P01', '22P02', '57014']) expect(isReplicaUnavailable({ code }), code).toBe(false);
  });
});
