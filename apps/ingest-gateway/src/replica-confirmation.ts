import type { Queue } from '@vt/queue';
import { type RedisConnection, waitForReplicas } from '@vt/redis';

/** REDIS_DURABILITY=replicated: how many replicas must hold an enqueue before the sender hears 2xx. */
export interface ReplicatedDurability {
  replicas: number;
  timeoutMs: number;
}

/** Thrown when the replicas did not confirm in time: the job is on the master, maybe not for long. */
export class NotReplicatedError extends Error {
  constructor(confirmed: number, wanted: number) {
    super(`${confirmed} of ${wanted} Redis replicas confirmed the enqueue in time`);
    this.name = 'NotReplicatedError';
  }
}

/**
 * After a job is on its queue's master, waits for replicas (Redis WAIT on the connection that
 * wrote it: the producer connection every gateway queue shares). Redis replicates
 * asynchronously, so without this a master lost right after the enqueue can take an answered
 * batch or lead with it. Resolves at once in fast mode (`durability` absent).
 */
export function replicaConfirmation(
  connection: RedisConnection,
  durability: ReplicatedDurability | undefined,
): (queue: Queue) => Promise<void> {
  if (!durability) return async () => {};
  return async (queue) => {
    // Any key of the queue names its slot, hence its master, on a cluster.
    const confirmed = await waitForReplicas(
      connection,
      `${queue.opts.prefix}:${queue.name}`,
      durability.replicas,
      durability.timeoutMs,
    );
    if (confirmed < durability.replicas) throw new NotReplicatedError(confirmed, durability.replicas);
  };
}
