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

/** A master with fewer connected replicas than the replicated mode waits for. */
export interface MasterShortOfReplicas {
  /** host:port, as the client knows the master. */
  master: string;
  replicas: number;
}

/**
 * The masters (the one Redis, or every master of a cluster) that have fewer than `wanted`
 * replicas connected now, read from `INFO replication`. Every batch and lead a short master takes
 * would answer 503 in the replicated mode, so the gateway says so at start rather than at the
 * first sender's retry.
 */
export async function mastersShortOfReplicas(
  connection: RedisConnection,
  wanted: number,
  readyTimeoutMs = 10_000,
): Promise<MasterShortOfReplicas[]> {
  // Request-path connections send nothing before they are connected (no offline queue).
  await connected(connection, readyTimeoutMs);
  const masters = isCluster(connection) ? connection.nodes('master') : [connection];
  const counted = await Promise.all(
    masters.map(async (node) => {
      const info = await node.info('replication');
      const replicas = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? 0);
      return { master: `${node.options.host}:${node.options.port}`, replicas };
    }),
  );
  return counted.filter((master) => master.replicas < wanted);
}

/** Resolves once the connection (or the cluster) is ready; rejects after `timeoutMs`. */
function connected(connection: RedisConnection, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      connection.off('ready', onReady);
      reject(new Error(`Redis not ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    connection.once('ready', onReady);
  });
}
