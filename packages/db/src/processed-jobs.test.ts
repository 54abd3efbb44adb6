import { describe, expect, it } from 'vitest';
import { PROCESSED_JOB_RETENTION_MS, processedJobsPruneTask, pruneProcessedJobs } from './processed-jobs.ts';
import { runDatabase as testDb, uniqueName as uniqueSlug } from './testing/run-database.ts';

describe('pruneProcessedJobs', () => {
  it('deletes only the markers of its queue that are older than the retention', async () => {
    const db = testDb();
    const queue = uniqueSlug('queue');
    const now = new Date();
    const old = new Date(now.getTime() - PROCESSED_JOB_RETENTION_MS - 1000);
    await db.processedJob.createMany({
      data: [
        { jobKey: `${queue}:old`, queue, processedAt: old },
        { jobKey: `${queue}:new`, queue, processedAt: now },
        { jobKey: `${queue}-other:old`, queue: `${queue}-other`, processedAt: old },
      ],
    });
    expect(await pruneProcessedJobs(db, queue, now)).toBe(1);
    const left = await db.processedJob.findMany({
      where: { jobKey: { startsWith: queue } },
      orderBy: { jobKey: 'asc' },
    });
    expect(left.map((j) => j.jobKey)).toEqual([`${queue}-other:old`, `${queue}:new`]);
  });
});

describe('processedJobsPruneTask', () => {
  it('prunes the old markers of its queue, hourly', async () => {
    const db = testDb();
    const queue = uniqueSlug('queue');
    const old = new Date(Date.now() - PROCESSED_JOB_RETENTION_MS - 60_000);
    await db.processedJob.createMany({
      data: [
        { jobKey: `${queue}:old`, queue, processedAt: old },
        { jobKey: `${queue}:new`, queue },
      ],
    });
    const task = processedJobsPruneTask(db, queue);
    expect(task).toMatchObject({ name: 'prune processed-job markers', everyMs: 3_600_000 });
    expect(await task.run()).toBe(1);
    const left = await db.processedJob.findMany({ where: { queue } });
    expect(left.map((j) => j.jobKey)).toEqual([`${queue}:new`]);
  });
});
