import type { CursorPage } from '@vt/contracts';
import { Prisma } from '@vt/db';

/**
 * A list endpoint's answer before it is sent: `total` counts every match, not just this page;
 * the cursors say where the pages beside it start.
 */
export interface ListResult<Row> extends CursorPage {
  data: Row[];
  total: number;
}

export const emptyList = <Row>(): ListResult<Row> => ({
  data: [],
  total: 0,
  has_more: false,
  next_cursor: null,
  prev_cursor: null,
});

export const isoInstant = (value: Date) => value.toISOString();

/** mentions / all, 0 when there is nothing to divide. */
export function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/**
 * `column` restricted to the properties. One property is written as `=`, so Postgres can walk a
 * (property_id, …) index in the endpoint's order and stop after the page; several as `= ANY`.
 * `column` is always a constant of this codebase, never input.
 */
export function inProperties(column: string, propertyIds: readonly string[]): Prisma.Sql {
  return propertyIds.length === 1
    ? Prisma.sql`${Prisma.raw(column)} = ${propertyIds[0]}::uuid`
    : Prisma.sql`${Prisma.raw(column)} = ANY(${propertyIds}::uuid[])`;
}

/** `column` within the inclusive UTC-day range. `column` is always a constant of this codebase. */
export function inDays(column: string, range: { from: string; to: string }): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(column)} BETWEEN ${range.from}::date AND ${range.to}::date`;
}
