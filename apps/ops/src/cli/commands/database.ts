import { applyMigrations, ensureDatabaseExists, maintainCrawlEventPartitions } from '@vt/db';
import type { OpsContext } from '../context.ts';

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

/**
 * What the crawl worker does hourly, on demand: makes the raw crawl events' partitions of today
 * and the week ahead, drops the days wholly past CRAWL_EVENT_RETENTION_HOURS. For a deployment
 * whose crawl workers are stopped, and after restoring a backup.
 */
export async function maintainPartitions(ctx: OpsContext) {
  return maintainCrawlEventPartitions(ctx.db, { retentionMs: ctx.config.CRAWL_EVENT_RETENTION_HOURS * 3_600_000 });
}
