import { randomBytes } from 'node:crypto';
import { createDatabaseFromTemplate, createPrismaClient, dropDatabase, type PrismaClient } from '@vt/db';
import { inject } from 'vitest';
import { testEnv } from './test-env.ts';

let client: PrismaClient | undefined;

/**
 * Ends the test client after a file's tests: the setup file `close-test-db.ts` registers it for
 * every file. (A hook registered here, on import, would run after the first file only: the main
 * suite's files share a worker's modules.)
 */
export async function closeTestDb() {
  await client?.$disconnect();
  client = undefined;
}

/** A test's Prisma client: a small pool, and timeouts that fail a stuck test rather than hang it. */
const clientOf = (databaseUrl: string) =>
  createPrismaClient({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: 4,
    DATABASE_CONNECT_TIMEOUT_MS: 5000,
    DATABASE_IDLE_TIMEOUT_MS: 10000,
    DATABASE_STATEMENT_TIMEOUT_MS: 30000,
  });

/** A Prisma client on this run's database, closed after the file's tests. */
export function testDb(): PrismaClient {
  client ??= clientOf(testEnv.DATABASE_URL);
  return client;
}

/** A slug no other test file uses, so suites can run side by side on one database. */
export function uniqueSlug(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

/**
 * A database of its own for a test file whose writes are global to a database (the demo team's
 * fixed ids, the AI agent catalogue's versions): `<run's database>_<label>`, a copy of the run's
 * migrated template, with a client. `drop()` disconnects and drops it.
 */
export async function scratchDatabase(
  label: string,
): Promise<{ url: string; db: PrismaClient; drop(): Promise<void> }> {
  const url = new URL(testEnv.DATABASE_URL);
  url.pathname = `${url.pathname}_${label}`;
  const databaseUrl = url.toString();
  await createDatabaseFromTemplate(databaseUrl, inject('templateDatabaseUrl'));
  const db = clientOf(databaseUrl);
  return {
    url: databaseUrl,
    db,
    async drop() {
      await db.$disconnect();
      await dropDatabase(databaseUrl);
    },
  };
}
