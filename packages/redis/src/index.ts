export type { Cluster, Redis } from 'ioredis';
export { announceApiKeyRevocation, apiKeyRevocationVersion } from './api-key-revocations.ts';
export {
  closeRedisConnection,
  createProducerConnection,
  createWorkerConnection,
  type RedisClusterNode,
  type RedisConnection,
  type RedisConnectionOptions,
} from './connections.ts';
export { type MasterShortOfReplicas, mastersShortOfReplicas, waitForReplicas } from './durability.ts';
export { keySlot } from './key-slot.ts';
export { redisKey, taggedRedisKey, withinTag } from './keys.ts';
