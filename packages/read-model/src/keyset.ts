import { type CursorPage, type CursorValue, encodeCursor } from '@vt/contracts';
import { Prisma } from '@vt/db';
import type { Page } from './read-scope.ts';

/** One column of a list's order: a constant of this codebase (never input), its direction and its type. */
export interface SortColumn {
  column: string;
  descending?: boolean;
  type: 'date' | 'uuid' | 'timestamptz' | 'int' | 'text';
}

const typed = (value: CursorValue, type: SortColumn['type']): Prisma.Sql =>
  type === 'text' ? Prisma.sql`${value}` : Prisma.sql`${value}::${Prisma.raw(type)}`;

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
    const { column, descending, type } = order[i] as SortColumn;
    const value = typed(anchor.values[i] as CursorValue, type);
    const beyond = Prisma.raw(Boolean(descending) === anchor.forward ? '<' : '>');
    const strictly = Prisma.sql`${Prisma.raw(column)} ${beyond} ${value}`;
    condition = condition
      ? Prisma.sql`(${strictly} OR (${Prisma.raw(column)} = ${value} AND ${condition}))`
      : Prisma.sql`(${strictly})`;
  }
  return condition ?? Prisma.sql`TRUE`;
}

/**
 * `ORDER BY … LIMIT … OFFSET …` of a page: the list's order (reversed when paging backwards, so
 * the rows nearest the cursor come first), one row more than the page to tell whether more follow.
 */
export function pageOrder(order: readonly SortColumn[], page: Page): Prisma.Sql {
  const backwards = page.before !== undefined;
  const columns = order.map(({ column, descending }) =>
    Prisma.raw(`${column} ${Boolean(descending) !== backwards ? 'DESC' : 'ASC'}`),
  );
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
