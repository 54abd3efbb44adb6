/**
 * The name of a deployment's own Redis key: its prefix (`QUEUE_PREFIX`, a {hash tag} such as
 * `{vt}`), then the parts, joined by `:`. Every key the service writes outside BullMQ is named
 * here, so one prefix namespaces a whole deployment (BullMQ takes the same prefix for its queues)
 * and, on Redis Cluster, keeps all of its keys on one slot.
 */
export function redisKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].join(':');
}
