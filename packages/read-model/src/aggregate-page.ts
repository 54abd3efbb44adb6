import type { Page } from './read-scope.ts';

/**
 * Grouped pages carry the group count on every row: aggregating endpoints compute every group
 * anyway (to sort them), so they read it with `count(*) OVER ()`; the visibility series, whose
 * points are stored rows, counts them in an init plan. Only a page past the end comes back
 * without rows to read it from; then the first row of the same query supplies the totals.
 *
 * A cursor is applied after the groups and their window counts are computed (the query wrapped,
 * the keyset on the outside), so the counts are the whole list's, not what is left past the cursor.
 */
export async function pageOfGroups<Row extends { total_groups: number }>(
  run: (page: Page) => Promise<Row[]>,
  page: Page,
): Promise<{ rows: Row[]; total: number }> {
  const rows = await run(page);
  const fromTheStart = page.offset === 0 && page.after === undefined && page.before === undefined;
  if (rows.length > 0 || fromTheStart) return { rows, total: rows[0]?.total_groups ?? 0 };
  const [first] = await run({ limit: 1, offset: 0 });
  return { rows, total: first?.total_groups ?? 0 };
}
