import { describe, expect, it } from 'vitest';
import { createPrismaClient } from './client.ts';
import { Prisma, PrismaClient } from './generated/prisma/client.ts';
import { sqlReaderOf } from './sql-reader.ts';
import { runDatabaseUrl } from './testing/run-database.ts';

const config = {
  DATABASE_URL: runDatabaseUrl,
  DATABASE_POOL_MAX: 1,
  DATABASE_CONNECT_TIMEOUT_MS: 5000,
  DATABASE_IDLE_TIMEOUT_MS: 10000,
  DATABASE_STATEMENT_TIMEOUT_MS: 30000,
};

describe('sqlReaderOf', () => {
  it('runs a Prisma.sql template on the client’s own pool, values as parameters, never spliced', async () => {
    const db = createPrismaClient(config, 'vt-sql-reader-test');
    try {
      const hostile = "x'; DROP TABLE teams; --";
      const rows = await sqlReaderOf(db).rows<{ echoed: string; n: number; app: string; urls: string[] }>(
        Prisma.sql`SELECT ${hostile}::text AS echoed, ${41}::int + 1 AS n,
          current_setting('application_name') AS app, to_json(ARRAY['https://a.example/', 'https://b.example/']) AS urls`,
      );
      // application_name is the one createPrismaClient gave its pool: the reader runs on that pool.
      expect(rows).toEqual([
        { echoed: hostile, n: 42, app: 'vt-sql-reader-test', urls: ['https://a.example/', 'https://b.example/'] },
      ]);
      // Prisma itself still works on the shared pool (of one connection) after the reader used it.
      expect(await db.$queryRaw<{ one: number }[]>`SELECT 1::int AS one`).toEqual([{ one: 1 }]);
    } finally {
      await db.$disconnect();
    }
  });

  it('shares the pool’s statement timeout, and $disconnect ends the pool under both', async () => {
    const db = createPrismaClient({ ...config, DATABASE_STATEMENT_TIMEOUT_MS: 200 });
    const reader = sqlReaderOf(db);
    await expect(reader.rows(Prisma.sql`SELECT pg_sleep(2)`)).rejects.toThrow(/statement timeout/);
    await db.$queryRaw`SELECT 1`; // connects Prisma's adapter to the pool, as the apps do
    await db.$disconnect();
    await expect(reader.rows(Prisma.sql`SELECT 1`)).rejects.toThrow(/pool/i);
  });

  it('survives an idle connection killed under it (Postgres restarted) before Prisma ever connected', async () => {
    const db = createPrismaClient(config, 'vt-sql-reader-kill');
    const killer = createPrismaClient(config, 'vt-sql-reader-killer');
    try {
      const reader = sqlReaderOf(db);
      const [{ pid }] = (await reader.rows<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`)) as [
        { pid: number },
      ];
      // The pool's idle client loses its connection: pg emits 'error' on the pool, which without a
      // listener would end this process.
      await killer.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [again] = await reader.rows<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`);
      expect(again?.pid).toEqual(expect.any(Number));
      expect(again?.pid).not.toBe(pid);
    } finally {
      await Promise.all([db.$disconnect(), killer.$disconnect()]);
    }
  });

  it('refuses a client that createPrismaClient did not build (there is no pool to share)', () => {
    const stranger = Object.create(PrismaClient.prototype) as PrismaClient;
    expect(() => sqlReaderOf(stranger)).toThrow(/createPrismaClient/);
  });
});
