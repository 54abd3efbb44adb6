import { type RedisConnection, redisKey } from '@vt/redis';
import { crawlBatchJob, leadJob } from './job-contracts.ts';
import { createQueue } from './producer.ts';
import { shardPrefix } from './queue-shards.ts';

/** Refused: the queues of the shard count in use still hold jobs that a new count would strand. */
export class QueueLayoutBusyError extends Error {
  constructor(
    readonly recorded: number,
    readonly wanted: number,
    readonly backlog: number,
  ) {
    super(
      `QUEUE_SHARDS is ${wanted}, but the queues of the ${recorded}-shard layout still hold ${backlog} jobs: ` +
        `stop the gateways, let the workers of ${recorded} shards drain them, then start everything with ${wanted} ` +
        '(docs/operators.md, "Changing the shard count")',
    );
    this.name = 'QueueLayoutBusyError';
  }
}

/**
 * The gateway's check at start that the deployment's shard count changes only over empty queues.
 * The count in use is recorded in Redis; a gateway started with another count switches the record
 * only when no job (waiting, delayed for a retry, or in progress) is left in the sharded queues of
 * the recorded count, and refuses to start otherwise: once it enqueued under the new count, jobs
 * of the old layout would wait for workers nobody runs any more. No record (a first start, or an
 * upgrade from before shards) counts as the one-shard layout, today's `{vt}` queues.
 */
export async function claimQueueLayout(
  connection: RedisConnection,
  prefix: string,
  shards: number,
): Promise<{ previous: number }> {
  const key = redisKey(prefix, 'queue-shards');
  const previous = Number((await connection.get(key)) ?? '1');
  if (previous !== shards) {
    const backlog = await queuedJobs(connection, prefix, previous);
    if (backlog > 0) throw new QueueLayoutBusyError(previous, shards, backlog);
  }
  await connection.set(key, String(shards));
  return { previous };
}

/**
 * `claimQueueLayout` as a gate a gateway opens once: every enqueue awaits `ready()`, which checks
 * until a check passes (Redis may be away at start: the gateway still starts, and answers 503 as
 * for any Redis outage until it can check). While the old layout holds jobs, enqueues fail and
 * the gateway's /readyz answers 503 naming `queue-layout`, so nothing is written under the new
 * count before the old one is drained.
 */
export function queueLayoutGate(
  connection: RedisConnection,
  prefix: string,
  shards: number,
  onSwitched: (previous: number) => void = () => {},
): { ready: () => Promise<void> } {
  let passed: Promise<void> | undefined;
  return {
    ready: () => {
      passed ??= claimQueueLayout(connection, prefix, shards).then(
        ({ previous }) => {
          if (previous !== shards) onSwitched(previous);
        },
        (err: unknown) => {
          passed = undefined; // the next enqueue or readiness probe checks again
          throw err;
        },
      );
      return passed;
    },
  };
}

/** Jobs not yet done in the sharded queues of a layout: what its workers still owe. */
async function queuedJobs(connection: RedisConnection, prefix: string, shards: number): Promise<number> {
  const queues = [crawlBatchJob, leadJob].flatMap((contract) =>
    Array.from({ length: shards }, (_, shard) => createQueue(contract, connection, shardPrefix(prefix, shard, shards))),
  );
  try {
    const counts = await Promise.all(
      queues.map((queue) => queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'waiting-children')),
    );
    return counts.reduce((sum, count) => sum + Object.values(count).reduce((a, b) => a + b, 0), 0);
  } finally {
    await Promise.all(queues.map((queue) => queue.close()));
  }
}
