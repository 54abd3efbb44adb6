import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createPrismaClient } from '../client.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';

// This package's own tests take the test run's database straight from the global setup:
// @vt/test-support is built on this package, so using it here would make the two depend on
// each other.

/** The test run's migrated database. */
export const runDatabaseUrl = inject('databaseUrl');

let client: PrismaClient | undefined;

/**
 * Ends the client `runDatabase` opened, if any. The suite's setup file calls it after every test
 * file: files share a worker's modules, so a hook this module registered would run for the first
 * file that imported it only.
 */
export async function closeRunDatabase(): Promise<void> {
  const open = client;
  client = undefined;
  await open?.$disconnect();
}

/** A Prisma client on the run's database, closed after the file's tests. */
export function runDatabase(): PrismaClient {
  client ??= createPrismaClient({
    DATABASE_URL: runDatabaseUrl,
    DATABASE_POOL_MAX: 2,
    DATABASE_CONNECT_TIMEOUT_MS: 5000,
    DATABASE_IDLE_TIMEOUT_MS: 10000,
    DATABASE_STATEMENT_TIMEOUT_MS: 30000,
  });
  return client;
}

/** A name no other test file uses. */
export const uniqueName = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;
