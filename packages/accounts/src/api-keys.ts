import { type ApiKeyAccess, OperationError } from '@vt/contracts/console';
import { generateApiKey, type IssuedApiKey } from '@vt/credentials';
import { Prisma, type PrismaClient } from '@vt/db';
import {
  beyondCursor,
  cursorPage,
  inPageOrder,
  isoInstant,
  type Page,
  pageOrder,
  type SortColumn,
} from '@vt/read-model';
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

/** Live keys (revokedAt NULL) first, then revoked ones, last revoked first; each newest first, then id. */
const KEY_ORDER: SortColumn[] = [
  { column: 'revoked_at', descending: true, nulls: 'first', type: 'timestamptz' },
  { column: 'created_at', descending: true, type: 'timestamptz' },
  { column: 'id', type: 'uuid' },
];

/** A page of the team's keys, live ones first, newest first; never the keys themselves. */
export async function listApiKeys(db: PrismaClient, teamId: string, page: Page) {
  const read = await db.$queryRaw<{ id: string; revoked_at: Date | null; created_at: Date }[]>(Prisma.sql`
    SELECT id, revoked_at, created_at FROM api_keys
    WHERE team_id = ${teamId}::uuid AND ${beyondCursor(KEY_ORDER, page)}
    ${pageOrder(KEY_ORDER, page)}`);
  const { rows, ...cursors } = cursorPage(read, page, (key) => [
    key.revoked_at && isoInstant(key.revoked_at),
    isoInstant(key.created_at),
    key.id,
  ]);
  const keys = await db.apiKey.findMany({ where: { id: { in: rows.map((row) => row.id) } }, include: keyInclude });
  return { keys: inPageOrder(rows, keys).map(keyView), ...cursors };
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
