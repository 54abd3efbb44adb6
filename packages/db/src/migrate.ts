import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));
// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK_ID = 72_707_369;

export interface AppliedMigration {
  name: string;
  applied: boolean;
}

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** Migrations in Prisma's layout: <dir>/<timestamp>_<name>/migration.sql, in name order. */
export async function listMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies pending migrations, each in its own transaction, and records them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` would (same table, same sha256
 * checksum), so where Prisma's native engines can be downloaded the two agree. Prisma's migrate
 * engine cannot run on machines that reach only the npm registry; this runner needs only `pg`.
 * A session-level advisory lock lets several processes start at once.
 */
export async function applyMigrations(databaseUrl: string, dir = DEFAULT_MIGRATIONS_DIR): Promise<AppliedMigration[]> {
  const migrations = await listMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const appliedChecksums = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    const result: AppliedMigration[] = [];
    for (const migration of migrations) {
      const recorded = appliedChecksums.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new Error(
            `migration ${migration.name} was changed after it was applied; add a new migration instead of editing it`,
          );
        }
        result.push({ name: migration.name, applied: false });
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.name} failed: ${(err as Error).message}`);
      }
      result.push({ name: migration.name, applied: true });
    }
    return result;
  } finally {
    await client.end(); // ends the session, releasing the advisory lock
  }
}
