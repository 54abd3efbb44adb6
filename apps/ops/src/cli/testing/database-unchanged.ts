import type { PrismaClient } from '@vt/db';
import { expect } from 'vitest';

// "Every operator command that refuses its input changes nothing" (issue 33): a snapshot of the
// tables a command could write, taken before and after it runs, compared whole. A row count alone
// would miss an update; a checksum of every row's text (sorted, so the order rows come back in
// does not matter) catches one changed column.

/** Each table's row count and an md5 of its rows' text; every table of the schema when none are named. */
export async function databaseSnapshot(
  db: PrismaClient,
  tables?: readonly string[],
): Promise<Record<string, { rows: number; checksum: string }>> {
  const names =
    tables ??
    (
      await db.$queryRaw<{ name: string }[]>`
        SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
        ORDER BY table_name`
    ).map((t) => t.name);
  const snapshot: Record<string, { rows: number; checksum: string }> = {};
  for (const name of names) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    const [row] = await db.$queryRawUnsafe<{ rows: number; checksum: string }[]>(
      `SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS checksum FROM ${quoted} t`,
    );
    snapshot[name] = row!;
  }
  return snapshot;
}

/**
 * Runs `run` (a refused command) and expects the tables (all of the schema by default) exactly as
 * they were before it; returns what `run` returned, for the caller to check the refusal itself.
 * The database must be the file's own (scratchDatabase): another file's writes would show here.
 */
export async function expectDatabaseUnchanged<T>(
  db: PrismaClient,
  tables: readonly string[] | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const before = await databaseSnapshot(db, tables);
  const result = await run();
  expect(await databaseSnapshot(db, tables)).toEqual(before);
  return result;
}
