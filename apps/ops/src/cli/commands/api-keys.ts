import { createApiKey as createTeamApiKey, revokeApiKey as revokeTeamApiKey } from '@vt/accounts';
import type { IssuedApiKey } from '@vt/credentials';
import { announceApiKeyRevocation, closeRedisConnection, createProducerConnection } from '@vt/redis';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { accessSchema, displayNameSchema, parseOptions, slugSchema, uuidSchema } from '../inputs.ts';
import { findTeamBySlug } from './teams.ts';

const keyCreateInput = z.object({
  team: slugSchema,
  name: displayNameSchema.default('API key'),
  access: accessSchema.default('read'),
  property: z.array(uuidSchema).optional(),
});

/**
 * Creates a read API key. Without --property it reaches every property of the team; with one or
 * more it is scoped to those, which must belong to the team. The full key is returned this once:
 * only its SHA-256 is stored.
 */
export async function createApiKey(ctx: OpsContext, options: unknown, issued?: IssuedApiKey) {
  const input = parseOptions(keyCreateInput, options);
  const team = await findTeamBySlug(ctx, input.team);
  const { key, secret } = await createTeamApiKey(
    ctx.db,
    { teamId: team.id, name: input.name, access: input.access, propertyIds: input.property },
    issued,
  );
  return {
    id: key.id,
    key: secret,
    prefix: key.prefix,
    name: key.name,
    access: key.access,
    allProperties: key.allProperties,
    propertyIds: key.propertyIds,
    note: 'Shown once: store it now. Only its hash is kept.',
  };
}

/**
 * Revokes a key, then tells every read API replica (through Redis), which refuses it from its next
 * request on. A repeat announces again: a revoke whose announcement failed is made good by re-running it.
 */
export async function revokeApiKey(ctx: OpsContext, options: unknown) {
  const input = parseOptions(z.object({ id: uuidSchema }), options);
  const key = await revokeTeamApiKey(ctx.db, { keyId: input.id });
  const redis = createProducerConnection({
    redisUrl: ctx.config.REDIS_URL,
    clusterNodes: ctx.config.REDIS_CLUSTER_NODES,
    onError: () => {},
  });
  try {
    // A producer connection fails fast instead of queueing: wait until it is up (or give up).
    if (redis.status !== 'ready') {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('Redis did not answer within 10 s')), 10_000);
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await announceApiKeyRevocation(redis, ctx.config.QUEUE_PREFIX);
  } finally {
    await closeRedisConnection(redis);
  }
  return key;
}
