export { createPrismaClient, type DatabaseConfig } from './client.ts';
export {
  CRAWL_EVENT_PARTITION_DAYS_AHEAD,
  type CrawlEventPartitionMaintenance,
  crawlEventPartitionsTask,
  createCrawlEventPartition,
  listCrawlEventPartitions,
  maintainCrawlEventPartitions,
  partitionName,
} from './crawl-event-partitions.ts';
export { createDatabaseFromTemplate, dropDatabase, ensureDatabaseExists } from './database-admin.ts';
export * from './generated/prisma/client.ts';
export { type AppliedMigration, applyMigrations, listMigrations } from './migrate.ts';
export { processedJobsPruneTask } from './processed-jobs.ts';
export { type ClaimSteps, propertyJobClaim, type UnclaimedReason, unclaimedReason } from './property-job-claim.ts';
export {
  isReplicaUnavailable,
  REPLICA_RETRY_MS,
  type ReplicaReaderEvents,
  replicaSqlReader,
} from './replica-reader.ts';
export { type SqlReader, sqlReaderOf } from './sql-reader.ts';
export { isUniqueViolation } from './unique-violation.ts';
export { addUtcDays, formatUtcDay, parseUtcDay, utcDay } from './utc-day.ts';
