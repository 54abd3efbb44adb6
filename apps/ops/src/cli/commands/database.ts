import { applyMigrations, ensureDatabaseExists } from '@vt/db';

/** Creates the database if it is missing, then applies pending migrations. */
export async function migrateDatabase(databaseUrl: string) {
  const created = await ensureDatabaseExists(databaseUrl);
  const migrations = await applyMigrations(databaseUrl);
  return {
    databaseCreated: created,
    applied: migrations.filter((m) => m.applied).map((m) => m.name),
    alreadyApplied: migrations.filter((m) => !m.applied).length,
  };
}
