import type { Logger } from '@vt/logger';
import { createJobWorker, type JobContract, type Worker } from '@vt/queue';
import type { RedisConnection } from '@vt/redis';
import type { z } from 'zod';
import type { JobMetrics } from './job-metrics.ts';

/**
 * What a job's processor did: applied its effects, or changed nothing, and why (a job already
 * applied, a property deleted since the job was queued, …). Either way the job is complete.
 */
export type JobOutcome<Reason extends string = string> = { applied: true } | { applied: false; reason: Reason };

/** Which attempt at its job a processor runs: a failure of the last one is final. */
export interface JobAttempt {
  /** Attempts made before this one. */
  made: number;
  /** Attempts the job has in all. */
  of: number;
}

/** One queue a worker process works. */
export interface JobWorkerSpec<S extends z.ZodType = z.ZodType> {
  contract: JobContract<S>;
  /** Jobs of this queue in flight at once in the process. */
  concurrency: number;
  /** BullMQ's rate limiter for the queue (see `createJobWorker`), when the processor may pause it. */
  limiter?: { max: number; duration: number };
  /**
   * The job's processor: applies one parsed payload (a plain function of the payload, testable
   * without Redis). A throw fails the attempt, and BullMQ retries it with the contract's backoff.
   */
  handle: (data: z.output<S>, attempt: JobAttempt) => Promise<JobOutcome>;
  /** What a job's log lines say about it: ids and counts only, never the payload's contents. */
  jobFields: (data: z.output<S>) => Record<string, unknown>;
  /**
   * Whether the processor claims a processed-job marker per job (propertyJobClaim): the shell
   * then prunes the queue's old markers hourly.
   */
  claimsProcessedJobs: boolean;
}

/**
 * A queue a process works, for its list of queues (which mixes contracts): what the shell reads of
 * it, and how to make its worker, with the payload's type kept inside `create`.
 */
export interface QueueJobWorker {
  contract: JobContract;
  claimsProcessedJobs: boolean;
  create: (deps: ObservedJobWorkerDeps) => Worker;
}

/** A queue's worker, typed by its contract. */
export function jobWorker<S extends z.ZodType>(spec: JobWorkerSpec<S>): QueueJobWorker {
  return {
    contract: spec.contract,
    claimsProcessedJobs: spec.claimsProcessedJobs,
    create: (deps) => createObservedJobWorker(spec, deps),
  };
}

export interface ObservedJobWorkerDeps {
  connection: RedisConnection;
  prefix: string;
  lockMs: number | undefined;
  logger: Logger;
  jobMetrics: JobMetrics;
}

/**
 * The BullMQ worker of one queue, made but not running: each job's payload parsed with the
 * contract's schema, then handled; its outcome logged and counted; its failures logged with what
 * jobFields says of it (its payload may not even parse), never with job.data.
 */
function createObservedJobWorker<S extends z.ZodType>(spec: JobWorkerSpec<S>, deps: ObservedJobWorkerDeps): Worker {
  const { contract, jobFields } = spec;
  const { logger, jobMetrics } = deps;
  const worker = createJobWorker({
    contract,
    connection: deps.connection,
    prefix: deps.prefix,
    concurrency: spec.concurrency,
    lockMs: deps.lockMs,
    ...(spec.limiter ? { limiter: spec.limiter } : {}),
    handle: async (data, job) => {
      const outcome = await spec.handle(data, { made: job.attemptsMade, of: job.opts.attempts ?? 1 });
      const fields = { jobId: job.id, ...jobFields(data) };
      if (outcome.applied) logger.debug(fields, `${contract.name} job applied`);
      else {
        jobMetrics.skipped(contract.queue, outcome.reason);
        logger.info({ ...fields, reason: outcome.reason }, `${contract.name} job skipped`);
      }
    },
    onUnknownJob: (job) =>
      logger.warn({ jobId: job.id, jobName: job.name }, `unknown job on the ${contract.queue} queue`),
  });
  // Listening first: an 'error' event with no listener would throw. BullMQ retries a failed job
  // with backoff, then keeps it as failed.
  worker.on('failed', (job, err) => {
    const parsed = contract.schema.safeParse(job?.data);
    const fields = parsed.success ? jobFields(parsed.data) : {};
    logger.error({ err, jobId: job?.id, attempt: job?.attemptsMade, ...fields }, `${contract.name} job failed`);
  });
  worker.on('error', (err) => logger.error({ err }, `${contract.name} worker error`));
  jobMetrics.observe(worker, contract.queue);
  return worker;
}
