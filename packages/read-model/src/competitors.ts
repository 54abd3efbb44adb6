import type { CompetitorShare } from '@vt/contracts';
import { Prisma, type SqlReader } from '@vt/db';
import { pageOfGroups } from './aggregate-page.ts';
import { beyondCursor, cursorPage, pageOrder, type SortColumn } from './keyset.ts';
import { emptyList, inDays, inProperties, type ListResult, ratio } from './list-result.ts';
import type { DayRange, Page } from './read-scope.ts';

interface CompetitorRecord {
  id: string;
  property_id: string;
  name: string;
  domain: string | null;
  mentions: number;
  brand_mentions: number;
  voices: number;
  total_groups: number;
}

/** Most mentioned first, then by name, ties by id. */
const COMPETITOR_ORDER: SortColumn[] = [
  { column: 'mentions', descending: true, type: 'int' },
  { column: 'name', type: 'text' },
  { column: 'id', type: 'uuid' },
];

/**
 * Share of voice is counted per property: a competitor's mentions over the brand's mentions
 * plus every competitor's, all within the range. Competitors never named still get a row (0).
 */
export async function competitorShares(
  sql: SqlReader,
  propertyIds: readonly string[],
  range: DayRange,
  page: Page,
): Promise<ListResult<CompetitorShare>> {
  if (propertyIds.length === 0) return emptyList();
  const { rows, total } = await pageOfGroups(
    (page) =>
      sql.rows<CompetitorRecord>(Prisma.sql`
      WITH named AS (
        SELECT competitor_id, count(*)::int AS mentions FROM response_competitor_mentions
        WHERE ${inProperties('property_id', propertyIds)} AND ${inDays('day', range)}
        GROUP BY competitor_id
      ), brand AS (
        SELECT property_id, sum(mentions)::int AS mentions FROM response_daily_counts
        WHERE ${inProperties('property_id', propertyIds)} AND ${inDays('day', range)}
        GROUP BY property_id
      ), competitor_rows AS (
        SELECT c.id, c.property_id, c.name, c.domain, COALESCE(named.mentions, 0) AS mentions,
          COALESCE(brand.mentions, 0) AS brand_mentions
        FROM competitors c
        LEFT JOIN named ON named.competitor_id = c.id
        LEFT JOIN brand ON brand.property_id = c.property_id
        WHERE ${inProperties('c.property_id', propertyIds)}
      ), shares AS (
        SELECT *, (brand_mentions + sum(mentions) OVER (PARTITION BY property_id))::int AS voices,
          (count(*) OVER ())::int AS total_groups
        FROM competitor_rows
      )
      SELECT * FROM shares WHERE ${beyondCursor(COMPETITOR_ORDER, page)} ${pageOrder(COMPETITOR_ORDER, page)}`),
    page,
  );
  const { rows: kept, ...cursors } = cursorPage(rows, page, (row) => [row.mentions, row.name, row.id]);
  return {
    ...cursors,
    data: kept.map((row) => ({
      id: row.id,
      propertyId: row.property_id,
      name: row.name,
      domain: row.domain,
      mentions: row.mentions,
      shareOfVoice: ratio(row.mentions, row.voices),
      brand: { mentions: row.brand_mentions, shareOfVoice: ratio(row.brand_mentions, row.voices) },
    })),
    total,
  };
}
