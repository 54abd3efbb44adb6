import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';

interface JobContract {
  queue: string;
  name: string;
  schema: z.ZodType;
  options: object;
}

/** A queue for one job contract; created explicitly by the app that produces, never on import. */
export function createQueue(contract: JobContract, connection: Redis, prefix: string): Queue {
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
