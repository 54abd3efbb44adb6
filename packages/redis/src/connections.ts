import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/** A connection to the deployment's Redis: one server, or a Redis Cluster. */
export type RedisConnection = Redis | Cluster;

/** A seed node of a Redis Cluster; the client learns the rest (and every failover) from it. */
export interface RedisClusterNode {
  host: string;
  port: number;
}

export interface RedisConnectionOptions {
  redisUrl: string;
  /**
   * The cluster's seed nodes (`REDIS_CLUSTER_NODES`): set, the connection is a Cluster client and
   * `redisUrl` only lends its credentials and TLS to every node; absent, one server at `redisUrl`.
   */
  clusterNodes?: readonly RedisClusterNode[];
  /** Called with every connection error; ioredis emits them instead of throwing. */
  onError: (err: Error) => void;
}

/** Options naming no cluster: the connection is known to be one server's (tests, tools). */
type SingleServerOptions = RedisConnectionOptions & { clusterNodes?: undefined };

// Never set ioredis `keyPrefix` on a BullMQ connection: BullMQ's Lua scripts build key names
// themselves. The queue prefix (a {hash tag}) is given to Queue/Worker instead.

/**
 * For producers (HTTP handlers): fail fast instead of buffering commands while Redis is away,
 * so a request answers 503 with a hint rather than hanging. On a cluster this also holds while
 * a failover is under way: the sender retries, and its retry reaches the promoted replica.
 */
export function createProducerConnection(options: SingleServerOptions): Redis;
export function createProducerConnection(options: RedisConnectionOptions): RedisConnection;
export function createProducerConnection(options: RedisConnectionOptions): RedisConnection {
  return connect(options, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 5000 });
}

/** For workers: BullMQ requires blocking commands to retry forever (maxRetriesPerRequest null). */
export function createWorkerConnection(options: SingleServerOptions): Redis;
export function createWorkerConnection(options: RedisConnectionOptions): RedisConnection;
export function createWorkerConnection(options: RedisConnectionOptions): RedisConnection {
  return connect(options, { maxRetriesPerRequest: null, connectTimeout: 5000 });
}

function connect(
  { redisUrl, clusterNodes, onError }: RedisConnectionOptions,
  redisOptions: RedisOptions,
): RedisConnection {
  const connection =
    clusterNodes && clusterNodes.length > 0
      ? new Cluster([...clusterNodes], clusterOptions(redisUrl, redisOptions))
      : new Redis(redisUrl, redisOptions);
  connection.on('error', onError);
  return connection;
}

function clusterOptions(redisUrl: string, redisOptions: RedisOptions): ClusterOptions {
  const url = new URL(redisUrl);
  return {
    // The cluster client queues nothing either when the node options say so: a producer's
    // command during a slot refresh fails fast like one on a single server.
    enableOfflineQueue: redisOptions.enableOfflineQueue ?? true,
    // MOVED/ASK and CLUSTERDOWN during a failover are retried by the client for a while.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    redisOptions: {
      ...redisOptions,
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  };
}

/** QUIT politely (flushing pending replies); when Redis is unreachable, just drop the socket. */
export async function closeRedisConnection(connection: RedisConnection): Promise<void> {
  if (connection.status === 'end') return;
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
