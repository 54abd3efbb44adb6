export type { Redis } from 'ioredis';
export {
  closeRedisConnection,
  createProducerConnection,
  createWorkerConnection,
  type RedisConnectionOptions,
} from './connections.ts';
export { redisKey } from './keys.ts';
