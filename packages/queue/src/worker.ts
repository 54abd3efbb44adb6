import type { RedisConnection } from '@vt/redis';
import { type Job, Worker } from 'bullmq';
import type { z } from 'zod';
import type { JobContract } from './job-contracts.ts';
import { delayFromError } from './retry-later.ts';

export interface JobWorkerOptions<S extends z.ZodType> {
  contract: JobContract<S>;
  connection: RedisConnection;
  prefix: string;
  concurrency: number;
  /**
   * How long a hold on a job lasts unrenewed (renewed at half of it while the job runs), and how
   * often stalled jobs are looked for: a killed worker's jobs return to the queue within about
   * twice this. BullMQ's 30 s when absent.
   */
  lockMs?: number;
  /**
   * BullMQ's rate limiter: at most `max` jobs started per `duration` ms across every worker of the
   * queue. A queue whose processor pauses it (`queue.rateLimit(ms)`, then `RateLimitError`) needs
   * one: BullMQ checks the pause only on a queue that has a limiter.
   */
  limiter?: { max: number; duration: number };
  /** The processor: a plain async function of the parsed payload, testable without Redis. */
  handle: (data: z.output<S>, job: Job) => Promise<void>;
  onUnknownJob: (job: Job) => void;
}

/** The thin BullMQ shell around a processor: parse the payload with the contract's schema, then handle. */
export function createJobWorker<S extends z.ZodType>(options: JobWorkerOptions<S>): Worker {
  const { contract, handle } = options;
  return new Worker(
    contract.queue,
    async (job) => {
      if (job.name !== contract.name) {
        // An unknown job name is logged and completed: retrying it cannot help.
        options.onUnknownJob(job);
        return;
      }
      await handle(contract.schema.parse(job.data), job);
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      autorun: false,
      // Only jobs whose contract asks for DELAY_FROM_ERROR_BACKOFF reach it; the others use BullMQ's own.
      settings: { backoffStrategy: delayFromError },
      ...(options.lockMs ? { lockDuration: options.lockMs, stalledInterval: options.lockMs } : {}),
      ...(options.limiter ? { limiter: options.limiter } : {}),
    },
  );
}
