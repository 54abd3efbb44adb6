import { type CursorPage, type CursorValue, encodeCursor } from '@vt/contracts';
import { Prisma } from '@vt/db';
import type { Page } from './read-scope.ts';

/**
 * One column of a list's order: a constant of this codebase (never input), its direction and its
 * type. `nulls` marks a nullable column and where its NULLs sort in the list's order (an API key's
 * revokedAt: live keys, NULL, first); a NULL compares as nothing in SQL, so the keyset spells it out.
 */
export interface SortColumn {
  column: string;
  descending?: boolean;
  type: 'date' | 'uuid' | 'timestamptz' | 'int' | 'text';
  nulls?: 'first' | 'last';
}

const typed = (value: CursorValue, type: SortColumn['type']): Prisma.Sql =>
  type === 'text' ? Prisma.sql`${value}` : Prisma.sql`${value}::${Prisma.raw(type)}`;

/**
 * The rows strictly beyond the cursor's value of one column in the direction of paging, and those
 * level with it. For a nullable column the NULLs are one block at one end: behind the cursor when
 * paging away from them, ahead of every value when paging towards them.
 */
function columnBeyond(
  sort: SortColumn,
  value: CursorValue,
  forward: boolean,
): { strictly: Prisma.Sql; level: Prisma.Sql } {
  const column = Prisma.raw(sort.column);
  const op = Prisma.raw(Boolean(sort.descending) === forward ? '<' : '>');
  if (!sort.nulls) {
    const typedValue = typed(value, sort.type);
    return { strictly: Prisma.sql`${column} ${op} ${typedValue}`, level: Prisma.sql`${column} = ${typedValue}` };
  }
  const nullsBehind = (sort.nulls === 'first') === forward;
  if (value === null) {
    return {
      strictly: nullsBehind ? Prisma.sql`${column} IS NOT NULL` : Prisma.sql`FALSE`,
      level: Prisma.sql`${column} IS NULL`,
    };
  }
  const typedValue = typed(value, sort.type);
  return {
    strictly: nullsBehind
      ? Prisma.sql`${column} ${op} ${typedValue}`
      : Prisma.sql`(${column} ${op} ${typedValue} OR ${column} IS NULL)`,
    level: Prisma.sql`${column} = ${typedValue}`,
  };
}

/** The cursor a page is read from, and which way: after it in the list's order, or before it. */
function anchorOf(page: Page): { values: readonly CursorValue[]; forward: boolean } | undefined {
  if (page.after) return { values: page.after, forward: true };
  if (page.before) return { values: page.before, forward: false };
  return undefined;
}

/**
 * The rows beyond the page's cursor in the direction of paging, TRUE without one. Columns of mixed
 * directions (most cited first, then the name A to Z) rule out a row comparison, so it is spelled
 * out: `a < x OR (a = x AND (b > y OR (b = y AND …)))`.
 */
export function beyondCursor(order: readonly SortColumn[], page: Page): Prisma.Sql {
  const anchor = anchorOf(page);
  if (!anchor) return Prisma.sql`TRUE`;
  let condition: Prisma.Sql | undefined;
  for (let i = order.length - 1; i >= 0; i--) {
    const { strictly, level } = columnBeyond(order[i] as SortColumn, anchor.values[i] as CursorValue, anchor.forward);
    condition = condition ? Prisma.sql`(${strictly} OR (${level} AND ${condition}))` : Prisma.sql`(${strictly})`;
  }
  return condition ?? Prisma.sql`TRUE`;
}

/**
 * `ORDER BY … LIMIT … OFFSET …` of a page: the list's order (reversed when paging backwards, so
 * the rows nearest the cursor come first), one row more than the page to tell whether more follow.
 */
export function pageOrder(order: readonly SortColumn[], page: Page): Prisma.Sql {
  const backwards = page.before !== undefined;
  const columns = order.map(({ column, descending, nulls }) => {
    const direction = Boolean(descending) !== backwards ? 'DESC' : 'ASC';
    if (!nulls) return Prisma.raw(`${column} ${direction}`);
    const nullsFirst = (nulls === 'first') !== backwards;
    return Prisma.raw(`${column} ${direction} NULLS ${nullsFirst ? 'FIRST' : 'LAST'}`);
  });
  return Prisma.sql`ORDER BY ${Prisma.join(columns, ', ')} LIMIT ${page.limit + 1} OFFSET ${page.offset}`;
}

/**
 * The page's rows in the list's order and where its neighbours start. Rows come as `pageOrder`
 * read them (one extra, reversed when paging backwards). Stripe's `has_more`: more rows in the
 * direction of paging. A page read forwards from a cursor or an offset has rows before it; one
 * read backwards has at least its cursor's row after it.
 */
export function cursorPage<Row>(
  read: readonly Row[],
  page: Page,
  keyOf: (row: Row) => CursorValue[],
): { rows: Row[] } & CursorPage {
  const backwards = page.before !== undefined;
  const more = read.length > page.limit;
  const rows = read.slice(0, page.limit);
  if (backwards) rows.reverse();
  const after = backwards || more;
  const before = backwards ? more : page.after !== undefined || page.offset > 0;
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    rows,
    has_more: more,
    next_cursor: after && last !== undefined ? encodeCursor(keyOf(last)) : null,
    prev_cursor: before && first !== undefined ? encodeCursor(keyOf(first)) : null,
  };
}

/**
 * `records`, read by id in any order, in the order of the page's `keys`. A list whose rows carry
 * relations reads its page's keys by keyset, then the whole rows through Prisma; a row removed
 * between the two reads is left out.
 */
export function inPageOrder<Full extends { id: string }>(
  keys: readonly { id: string }[],
  records: readonly Full[],
): Full[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  return keys.flatMap((key) => byId.get(key.id) ?? []);
}
