export { createPrismaClient, type DatabaseConfig } from './client.ts';
export { databaseNameOf, dropDatabase, ensureDatabaseExists } from './database-admin.ts';
export * from './generated/prisma/client.ts';
export { type AppliedMigration, applyMigrations, listMigrations } from './migrate.ts';
export {
  PROCESSED_JOB_RETENTION_MS,
  processedJobsPruneTask,
  pruneProcessedJobs,
} from './processed-jobs.ts';
export { addUtcDays, formatUtcDay, parseUtcDay, utcDay } from './utc-day.ts';
