import type { RedisConnection } from '@vt/redis';
import { Queue } from 'bullmq';
import type { z } from 'zod';
import type { JobContract } from './job-contracts.ts';

/** A queue for one job contract; created explicitly by the app that produces, never on import. */
export function createQueue(contract: JobContract, connection: RedisConnection, prefix: string): Queue {
  return new Queue(contract.queue, { connection, prefix, defaultJobOptions: contract.options });
}

/**
 * Parses the payload against the contract, then adds it. `jobId` makes a retried enqueue of
 * the same work a no-op while the job still exists; exactly-once effects are kept in Postgres.
 */
export async function enqueue<C extends JobContract>(
  queue: Queue,
  contract: C,
  data: z.input<C['schema']>,
  jobId: string,
): Promise<void> {
  const parsed = contract.schema.parse(data);
  await queue.add(contract.name, parsed, { jobId });
}

/**
 * Parses every payload, then adds them all with one addBulk: one pipeline, one round trip.
 * Resolves only once every job is in Redis. A pipeline is not a transaction: when it fails, some
 * jobs may be in already, so the ids must make adding them again harmless (a job already in is a
 * no-op under its id).
 */
export async function enqueueBulk<C extends JobContract>(
  queue: Queue,
  contract: C,
  jobs: readonly { data: z.input<C['schema']>; jobId: string }[],
): Promise<void> {
  const parsed = jobs.map(({ data, jobId }) => ({
    name: contract.name,
    data: contract.schema.parse(data),
    opts: { jobId },
  }));
  await queue.addBulk(parsed);
}

type Enqueue<C extends JobContract> = (data: z.input<C['schema']>, jobId: string) => Promise<void>;

/**
 * `enqueue` for a busy producer: jobs handed over during one turn of the event loop are added
 * together with addBulk, one pipeline (one write, one read) instead of a round trip each. Each
 * caller's promise resolves once its job is in Redis, and rejects only if its own job could not
 * be added.
 */
export function batchedEnqueue<C extends JobContract>(queue: Queue, contract: C, maxBatch = 500): Enqueue<C> {
  let pending: { data: unknown; jobId: string; resolve: () => void; reject: (err: unknown) => void }[] = [];
  const send = async () => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return; // sent already, when it filled up
    try {
      await queue.addBulk(batch.map(({ data, jobId }) => ({ name: contract.name, data, opts: { jobId } })));
      for (const job of batch) job.resolve();
    } catch {
      // One refused job fails the whole addBulk, though the others may be in. Add each again on
      // its own (a job already in is a no-op under its id), so only a job that truly failed fails.
      await Promise.all(
        batch.map(({ data, jobId, resolve, reject }) =>
          queue.add(contract.name, data, { jobId }).then(() => resolve(), reject),
        ),
      );
    }
  };
  return (data, jobId) =>
    new Promise<void>((resolve, reject) => {
      const parsed = contract.schema.parse(data);
      pending.push({ data: parsed, jobId, resolve, reject });
      if (pending.length === 1) setImmediate(() => void send());
      else if (pending.length >= maxBatch) void send();
    });
}
