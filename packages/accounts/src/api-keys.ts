import { type ApiKeyAccess, OperationError } from '@vt/contracts/console';
import { generateApiKey, type IssuedApiKey } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';
import { notFound } from './errors.ts';

const keyInclude = { properties: { select: { propertyId: true }, orderBy: { propertyId: 'asc' } } } as const;

export type ApiKeyView = ReturnType<typeof keyView>;

function keyView(key: {
  id: string;
  name: string;
  prefix: string;
  access: ApiKeyAccess;
  allProperties: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  properties: { propertyId: string }[];
}) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    access: key.access,
    allProperties: key.allProperties,
    propertyIds: key.properties.map((p) => p.propertyId),
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Creates a read API key. Without properties it reaches every property of the team; with some it
 * is scoped to those, which must belong to the team. The whole key is returned this once: only
 * its SHA-256 is stored.
 */
export async function createApiKey(
  db: PrismaClient,
  input: { teamId: string; name: string; access: ApiKeyAccess; propertyIds?: string[]; createdById?: string },
  issued: IssuedApiKey = generateApiKey(),
) {
  const propertyIds = [...new Set((input.propertyIds ?? []).map((id) => id.toLowerCase()))];
  if (propertyIds.length) {
    const owned = new Set(
      (
        await db.property.findMany({ where: { id: { in: propertyIds }, teamId: input.teamId }, select: { id: true } })
      ).map((p) => p.id),
    );
    const foreign = (input.propertyIds ?? []).flatMap((id, i) =>
      owned.has(id.toLowerCase()) ? [] : [{ path: `propertyIds.${i}`, message: 'not a property of this team' }],
    );
    if (foreign.length)
      throw new OperationError('INVALID_BODY', 'Some propertyIds are not properties of this team.', foreign);
  }
  const key = await db.apiKey.create({
    data: {
      teamId: input.teamId,
      name: input.name,
      keyHash: issued.hash,
      prefix: issued.prefix,
      access: input.access,
      allProperties: propertyIds.length === 0,
      createdById: input.createdById,
      properties: { create: propertyIds.map((propertyId) => ({ propertyId })) },
    },
    include: keyInclude,
  });
  return { key: keyView(key), secret: issued.key };
}

/** The team's keys, live ones first, newest first; never the keys themselves. */
export async function listApiKeys(db: PrismaClient, teamId: string) {
  const keys = await db.apiKey.findMany({
    where: { teamId },
    include: keyInclude,
    orderBy: [{ revokedAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }, { id: 'asc' }],
  });
  return keys.map(keyView);
}

/** Revokes a key of the team (a key of another team is not found); revoking twice changes nothing. */
export async function revokeApiKey(db: PrismaClient, input: { teamId?: string; keyId: string; now?: Date }) {
  const key = await db.apiKey.findFirst({
    where: { id: input.keyId, ...(input.teamId ? { teamId: input.teamId } : {}) },
    include: keyInclude,
  });
  if (!key) throw notFound('API key');
  if (key.revokedAt) return keyView(key);
  return keyView(
    await db.apiKey.update({
      where: { id: key.id },
      data: { revokedAt: input.now ?? new Date() },
      include: keyInclude,
    }),
  );
}
