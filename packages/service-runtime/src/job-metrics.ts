import type { Job, Queue, Worker } from '@vt/queue';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { withTimeout } from './with-timeout.ts';

/** A scrape does not wait longer than this for Redis: a queue's depth is then left out of that scrape. */
const DEPTH_TIMEOUT_MS = 1000;

/**
 * A worker process's job metrics, labelled by queue (a handful per deployment, never a job or
 * property id): jobs processed, skipped, retried, failed for good and stalled, and the time of
 * every attempt.
 */
export interface JobMetrics {
  /** Counts what a worker does with its jobs, from BullMQ's own events. */
  observe(worker: Worker, queue: string): void;
  /** A job completed without applying anything, and why (the processor's reason: a code, bounded). */
  skipped(queue: string, reason: string): void;
}

export function createJobMetrics(registry: Registry): JobMetrics {
  const registers = [registry];
  const processed = new Counter({
    name: 'vt_jobs_processed_total',
    help: 'Jobs completed by this process, by queue (applied, or skipped: see vt_jobs_skipped_total).',
    labelNames: ['queue'],
    registers,
  });
  const skipped = new Counter({
    name: 'vt_jobs_skipped_total',
    help: 'Completed jobs that changed nothing, by queue and reason (already applied, property gone, ...).',
    labelNames: ['queue', 'reason'],
    registers,
  });
  const retried = new Counter({
    name: 'vt_jobs_retried_total',
    help: 'Failed attempts that will be retried with the job backoff, by queue.',
    labelNames: ['queue'],
    registers,
  });
  const failed = new Counter({
    name: 'vt_jobs_failed_total',
    help: 'Jobs failed for good (attempts used up, or refused as unrecoverable), by queue; kept in the failed set.',
    labelNames: ['queue'],
    registers,
  });
  const stalled = new Counter({
    name: 'vt_jobs_stalled_total',
    help: 'Jobs whose worker stopped renewing its hold (killed or blocked), found by this process and put back to wait, by queue.',
    labelNames: ['queue'],
    registers,
  });
  const duration = new Histogram({
    name: 'vt_job_duration_seconds',
    help: 'Time of each job attempt from start to completion or failure, by queue and result (completed, failed).',
    labelNames: ['queue', 'result'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  });
  const attemptSeconds = (job: Job, finishedAt: number) =>
    job.processedOn ? Math.max(0, finishedAt - job.processedOn) / 1000 : undefined;

  return {
    observe(worker, queue) {
      // Every series exists from the start, at 0, so rates and alerts work before the first event.
      for (const counter of [processed, retried, failed, stalled]) counter.inc({ queue }, 0);
      worker.on('completed', (job) => {
        processed.inc({ queue });
        const seconds = attemptSeconds(job, job.finishedOn ?? Date.now());
        if (seconds !== undefined) duration.observe({ queue, result: 'completed' }, seconds);
      });
      worker.on('failed', (job, err) => {
        if (!job) return;
        const seconds = attemptSeconds(job, Date.now());
        if (seconds !== undefined) duration.observe({ queue, result: 'failed' }, seconds);
        (willRetry(job, err) ? retried : failed).inc({ queue });
      });
      worker.on('stalled', () => stalled.inc({ queue }));
    },
    skipped(queue, reason) {
      skipped.inc({ queue, reason });
    },
  };
}

/**
 * Whether BullMQ put a failed attempt back for another try. The 'failed' event comes after the job
 * was moved, with its attempts already counted; BullMQ retries while attempts remain, unless the
 * error is an UnrecoverableError (BullMQ's documented rule, matched by name as BullMQ does).
 */
function willRetry(job: Job, err: Error): boolean {
  return job.attemptsMade < (job.opts.attempts ?? 1) && err.name !== 'UnrecoverableError';
}

/**
 * `vt_queue_jobs{queue, state}`: these queues' jobs by state, read from Redis at every scrape.
 * Workers report the queue they work, and the gateway the queues it fills, so a backlog shows even
 * while no worker runs; every process that reports a queue reports the same figures (take the max).
 */
export function watchQueueDepth(registry: Registry, queues: readonly Queue[]): void {
  const registers = [registry];
  new Gauge({
    name: 'vt_queue_jobs',
    help: 'Jobs in each queue by state (waiting, delayed, active, failed), read from Redis at scrape time; every process reporting a queue reports the same figures.',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      // Summed into a local table first and written in one synchronous step: two scrapes that
      // overlap (each awaiting Redis) would otherwise both add into the one gauge after one reset.
      const totals = new Map<string, { queue: string; state: string; count: number }>();
      const add = (queue: string, state: string, count: number) => {
        const key = `${queue}\u0000${state}`;
        const row = totals.get(key) ?? { queue, state, count: 0 };
        row.count += count;
        totals.set(key, row);
      };
      await Promise.all(
        queues.map(async (queue) => {
          const counts = await withTimeout(
            queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed'),
            DEPTH_TIMEOUT_MS,
          ).catch(() => undefined);
          if (!counts) return;
          const of = (state: string) => counts[state] ?? 0;
          // Added: a sharded queue's shards (one Queue each, one name) report their sum.
          add(queue.name, 'waiting', of('waiting') + of('prioritized'));
          for (const state of ['delayed', 'active', 'failed'] as const) add(queue.name, state, of(state));
        }),
      );
      // A queue whose counts could not be read is absent from this scrape rather than stale.
      this.reset();
      for (const { queue, state, count } of totals.values()) this.set({ queue, state }, count);
    },
  });
}
