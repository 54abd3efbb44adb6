import { createApiKey as createTeamApiKey, revokeApiKey as revokeTeamApiKey } from '@vt/accounts';
import type { IssuedApiKey } from '@vt/credentials';
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

export async function revokeApiKey({ db }: OpsContext, options: unknown) {
  const input = parseOptions(z.object({ id: uuidSchema }), options);
  return revokeTeamApiKey(db, { keyId: input.id });
}
