import { agentCategories, countsAsAi, crawlerOperatorName } from '@vt/attribution';
import { recentCatalogue } from '@vt/catalogue-store';
import { formatUtcDay, Prisma } from '@vt/db';
import type { ExportSourceFactory } from '../export-source.ts';
import { yesNo } from '../export-source.ts';

interface CrawlerDayRow {
  day: string;
  crawler: string;
  operator: string;
  hits: number;
  verified: number;
  unverified: number;
  unverifiable: number;
}

/**
 * AI crawler hits per UTC day and crawler, split by verification: the daily counts the crawl
 * worker keeps for the whole history. Not paths per visit: raw events (the only rows with a path
 * and a day) are pruned after CRAWL_EVENT_RETENTION_HOURS, so a month's export of them would
 * hold three days; and a day × crawler table is what a pivot table or a chart takes as it is.
 * Every crawler is listed, dual-use ones with `Counted as AI` saying whether the property counts
 * them, as the activity view does.
 */
export const crawlersSource: ExportSourceFactory = async ({ db, sql }, scope) => {
  // The catalogue the gateways match with, so an agent a refresh added has its category here too.
  const catalogue = await recentCatalogue(db);
  const categoryOf = agentCategories(catalogue);
  return {
    columns: [
      'Date',
      'Crawler',
      'Operator',
      'Category',
      'Counted as AI',
      'Hits',
      'Verified',
      'Unverified',
      'Unverifiable',
    ],
    page: (after: CrawlerDayRow | null, limit: number) =>
      // The primary key's order (property, day, crawler, operator, verification): each page is a
      // walk of the key from the last row on.
      sql.rows<CrawlerDayRow>(Prisma.sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, crawler, operator,
          sum(hits)::int AS hits,
          coalesce(sum(hits) FILTER (WHERE verification = 'verified'), 0)::int AS verified,
          coalesce(sum(hits) FILTER (WHERE verification = 'unverified'), 0)::int AS unverified,
          coalesce(sum(hits) FILTER (WHERE verification = 'unverifiable'), 0)::int AS unverifiable
        FROM crawler_daily_counts
        WHERE property_id = ${scope.propertyId}::uuid
          AND day BETWEEN ${formatUtcDay(scope.from)}::date AND ${formatUtcDay(scope.to)}::date
          ${after ? Prisma.sql`AND (day, crawler, operator) > (${after.day}::date, ${after.crawler}, ${after.operator})` : Prisma.empty}
        GROUP BY day, crawler, operator
        ORDER BY day, crawler, operator
        LIMIT ${limit}`),
    cells: (row: CrawlerDayRow) => {
      const category = categoryOf(row.crawler);
      return [
        row.day,
        row.crawler,
        crawlerOperatorName(row.operator, catalogue),
        category,
        yesNo(countsAsAi(category, scope.countDualUseAsAi)),
        row.hits,
        row.verified,
        row.unverified,
        row.unverifiable,
      ];
    },
  };
};
