import type { PrismaClient } from './generated/prisma/client.ts';

/**
 * How long a processed-job marker is kept. It must outlive every way a job can run again:
 * BullMQ retries (minutes) and failed jobs kept for inspection and manual retry (7 days).
 */
export const PROCESSED_JOB_RETENTION_MS = 14 * 24 * 3600 * 1000;

/** How often a worker prunes its queue's markers. */
const PRUNE_EVERY_MS = 3600 * 1000;

/** Deletes old markers of one queue, in bounded slices so it never holds long locks. */
export async function pruneProcessedJobs(db: PrismaClient, queue: string, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - PROCESSED_JOB_RETENTION_MS);
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM processed_jobs WHERE job_key IN (
        SELECT job_key FROM processed_jobs WHERE queue = ${queue} AND processed_at < ${before} LIMIT 5000)`;
    total += deleted;
    if (deleted < 5000) return total;
  }
}

/**
 * A worker's periodic task that prunes its queue's markers hourly. Markers outlive every retry,
 * then go; every replica may run this, harmlessly.
 */
export function processedJobsPruneTask(
  db: PrismaClient,
  queue: string,
): { name: string; everyMs: number; run: () => Promise<number> } {
  return { name: 'prune processed-job markers', everyMs: PRUNE_EVERY_MS, run: () => pruneProcessedJobs(db, queue) };
}
