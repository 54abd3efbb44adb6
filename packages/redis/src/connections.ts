import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  redisUrl: string;
  /** Called with every connection error; ioredis emits them instead of throwing. */
  onError: (err: Error) => void;
}

// Never set ioredis `keyPrefix` on a BullMQ connection: BullMQ's Lua scripts build key names
// themselves. The queue prefix (a {hash tag}) is given to Queue/Worker instead.

/**
 * For producers (HTTP handlers): fail fast instead of buffering commands while Redis is away,
 * so a request answers 503 with a hint rather than hanging.
 */
export function createProducerConnection({ redisUrl, onError }: RedisConnectionOptions): Redis {
  const connection = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
    lazyConnect: false,
  });
  connection.on('error', onError);
  return connection;
}

/** For workers: BullMQ requires blocking commands to retry forever (maxRetriesPerRequest null). */
export function createWorkerConnection({ redisUrl, onError }: RedisConnectionOptions): Redis {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null, connectTimeout: 5000 });
  connection.on('error', onError);
  return connection;
}

/** QUIT politely (flushing pending replies); when Redis is unreachable, just drop the socket. */
export async function closeRedisConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
