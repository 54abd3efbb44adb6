import type { Cluster, Redis } from 'ioredis';
import type { RedisConnection } from './connections.ts';
import { keySlot } from './key-slot.ts';

/**
 * Waits until `replicas` replicas acknowledged every write this connection sent so far (Redis
 * `WAIT`), at most `timeoutMs`; resolves with how many did. WAIT speaks for the client
 * connection it is sent on, so on a cluster it goes to the master connection that carried the
 * write: the master of `routingKey`'s slot (any key of the queue the job went to).
 */
export async function waitForReplicas(
  connection: RedisConnection,
  routingKey: string,
  replicas: number,
  timeoutMs: number,
): Promise<number> {
  return (await masterOf(connection, routingKey).wait(replicas, timeoutMs)) as number;
}

function masterOf(connection: RedisConnection, routingKey: string): Redis {
  if (!isCluster(connection)) return connection;
  const nodeKey = connection.slots[keySlot(routingKey)]?.[0];
  const master = connection.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === nodeKey);
  // No master known for the slot (a failover under way): the write's fate is unknown, so the
  // caller answers as it does for a failed enqueue.
  if (!master) throw new Error('no master known for the queue slot');
  return master;
}

const isCluster = (connection: RedisConnection): connection is Cluster =>
  'isCluster' in connection && connection.isCluster === true;
