import { type RedisConnection, withinTag } from '@vt/redis';
import type { Queue } from 'bullmq';
import type { JobContract } from './job-contracts.ts';
import { createQueue } from './producer.ts';
import { QUEUE_NAMES } from './queue-names.ts';

/**
 * The queues split over `QUEUE_SHARDS` hash tags: the two fed per property at volume by the
 * gateway. The rest (answers, email, alerts) carry little and stay on the deployment's prefix.
 */
const SHARDED_QUEUES: ReadonlySet<string> = new Set([QUEUE_NAMES.crawlBatch, QUEUE_NAMES.lead]);

export const isShardedQueue = (contract: JobContract) => SHARDED_QUEUES.has(contract.queue);

/**
 * The BullMQ prefix of shard `shard` of `shards`. One shard is the deployment's prefix itself
 * (`{vt}`), today's layout, so turning sharding off or never on moves no key; with more, shard k
 * is `{vt:k}`: its own hash tag, its own Redis Cluster slot, every key of its queue in that slot
 * as BullMQ's scripts require.
 */
export function shardPrefix(prefix: string, shard: number, shards: number): string {
  return shards === 1 ? prefix : withinTag(prefix, String(shard));
}

/**
 * The shard a property's jobs go to: FNV-1a of its id, modulo the shard count. Stable across
 * processes and restarts, so one property's jobs stay in one queue (in order) while `shards` is
 * unchanged; changing it is the drain-then-switch procedure in docs/operators.md.
 */
export function shardOfProperty(propertyId: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < propertyId.length; i += 1) {
    hash ^= propertyId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** One job contract's queue over every shard, for a producer. */
export interface ShardedQueue {
  /** The queue of the property's shard. */
  forProperty(propertyId: string): Queue;
  /** Every shard's queue, by shard number: for depths and closing. */
  readonly shards: readonly Queue[];
  /** Awaited before every enqueue: the gateway's shard-count check (`queueLayoutGate`). */
  ready(): Promise<void>;
}

export function createShardedQueue(
  contract: JobContract,
  connection: RedisConnection,
  prefix: string,
  shards: number,
  options: { ready?: () => Promise<void> } = {},
): ShardedQueue {
  const queues = Array.from({ length: shards }, (_, shard) =>
    createQueue(contract, connection, shardPrefix(prefix, shard, shards)),
  );
  return {
    forProperty: (propertyId) => queues[shardOfProperty(propertyId, shards)]!,
    shards: queues,
    ready: options.ready ?? (async () => {}),
  };
}
