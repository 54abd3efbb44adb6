import type { PromptRow, PropertyRow } from '@vt/contracts';
import { Prisma, type SqlReader } from '@vt/db';
import { beyondCursor, cursorPage, pageOrder, type SortColumn } from './keyset.ts';
import { emptyList, inProperties, isoInstant, type ListResult } from './list-result.ts';
import type { Page } from './read-scope.ts';

/** Newest created first, ties by id. */
const CREATED_ORDER: SortColumn[] = [
  { column: 'created_at', descending: true, type: 'timestamptz' },
  { column: 'id', type: 'uuid' },
];

const createdKey = (record: { created_at: Date; id: string }) => [isoInstant(record.created_at), record.id];

/** The properties themselves: the key's scope already holds only its active paid properties. */
export async function listProperties(
  sql: SqlReader,
  propertyIds: readonly string[],
  page: Page,
): Promise<ListResult<PropertyRow>> {
  if (propertyIds.length === 0) return emptyList();
  const [records, counted] = await Promise.all([
    sql.rows<{ id: string; name: string; domain: string; plan: PropertyRow['plan']; created_at: Date }>(Prisma.sql`
      SELECT id, name, domain, plan::text AS plan, created_at FROM properties
      WHERE ${inProperties('id', propertyIds)} AND ${beyondCursor(CREATED_ORDER, page)}
      ${pageOrder(CREATED_ORDER, page)}`),
    sql.rows<{ total: number }>(Prisma.sql`
      SELECT count(*)::int AS total FROM properties WHERE ${inProperties('id', propertyIds)}`),
  ]);
  const { rows, ...cursors } = cursorPage(records, page, createdKey);
  return {
    ...cursors,
    data: rows.map((record) => ({
      id: record.id,
      name: record.name,
      domain: record.domain,
      plan: record.plan,
      createdAt: isoInstant(record.created_at),
    })),
    total: counted[0]?.total ?? 0,
  };
}

export async function listPrompts(
  sql: SqlReader,
  propertyIds: readonly string[],
  page: Page,
): Promise<ListResult<PromptRow>> {
  if (propertyIds.length === 0) return emptyList();
  const [records, counted] = await Promise.all([
    sql.rows<{
      id: string;
      property_id: string;
      text: string;
      tags: string[];
      active: boolean;
      created_at: Date;
    }>(Prisma.sql`
      SELECT id, property_id, text, tags, active, created_at FROM prompts
      WHERE ${inProperties('property_id', propertyIds)} AND ${beyondCursor(CREATED_ORDER, page)}
      ${pageOrder(CREATED_ORDER, page)}`),
    sql.rows<{ total: number }>(Prisma.sql`
      SELECT count(*)::int AS total FROM prompts WHERE ${inProperties('property_id', propertyIds)}`),
  ]);
  const { rows, ...cursors } = cursorPage(records, page, createdKey);
  return {
    ...cursors,
    data: rows.map((record) => ({
      id: record.id,
      propertyId: record.property_id,
      text: record.text,
      tags: record.tags,
      active: record.active,
      createdAt: isoInstant(record.created_at),
    })),
    total: counted[0]?.total ?? 0,
  };
}
