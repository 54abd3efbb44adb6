import { generateApiKey } from '@vt/credentials';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { accessSchema, parseOptions, slugSchema, uuidSchema } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';
import { findTeamBySlug } from './teams.ts';

const keyCreateInput = z.object({
  team: slugSchema,
  name: z.string().trim().min(1).max(200).default('API key'),
  access: accessSchema.default('read'),
  property: z.array(uuidSchema).optional(),
});

/**
 * Creates a read API key. Without --property it reaches every property of the team; with one or
 * more it is scoped to those, which must belong to the team. The full key is returned this once:
 * only its SHA-256 is stored.
 */
export async function createApiKey(ctx: OpsContext, options: unknown, issued = generateApiKey()) {
  const input = parseOptions(keyCreateInput, options);
  const team = await findTeamBySlug(ctx, input.team);
  const propertyIds = [...new Set(input.property ?? [])];
  if (propertyIds.length) {
    const owned = await ctx.db.property.findMany({
      where: { id: { in: propertyIds }, teamId: team.id },
      select: { id: true },
    });
    const missing = propertyIds.filter((id) => !owned.some((p) => p.id === id));
    if (missing.length) {
      throw new OpsError('property_not_in_team', `not properties of team ${team.slug}: ${missing.join(', ')}`);
    }
  }
  const key = await ctx.db.apiKey.create({
    data: {
      teamId: team.id,
      name: input.name,
      keyHash: issued.hash,
      prefix: issued.prefix,
      access: input.access,
      allProperties: propertyIds.length === 0,
      properties: { create: propertyIds.map((propertyId) => ({ propertyId })) },
    },
  });
  return {
    id: key.id,
    key: issued.key,
    prefix: key.prefix,
    name: key.name,
    access: key.access,
    allProperties: key.allProperties,
    propertyIds,
    note: 'Shown once: store it now. Only its hash is kept.',
  };
}

export async function revokeApiKey({ db }: OpsContext, options: unknown) {
  const input = parseOptions(z.object({ id: uuidSchema }), options);
  const key = await db.apiKey.findUnique({ where: { id: input.id } });
  if (!key) throw new OpsError('key_not_found', `no API key with id ${input.id}`);
  const revoked = key.revokedAt
    ? key
    : await db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  return { id: revoked.id, prefix: revoked.prefix, revokedAt: revoked.revokedAt?.toISOString() ?? null };
}
