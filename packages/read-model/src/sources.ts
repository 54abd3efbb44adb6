import type { SourceDomain, SourcesQuery, SourceUrl, SourceUrlsQuery } from '@vt/contracts';
import { Prisma, type SqlReader } from '@vt/db';
import { pageOfGroups } from './aggregate-page.ts';
import { beyondCursor, cursorPage, pageOrder, type SortColumn } from './keyset.ts';
import { emptyList, inDays, inProperties, type ListResult, ratio } from './list-result.ts';
import type { DayRange, Page } from './read-scope.ts';

function citationFilters(propertyIds: readonly string[], query: SourcesQuery, range: DayRange) {
  const filters = [inProperties('property_id', propertyIds), inDays('day', range)];
  if (query.model !== undefined) filters.push(Prisma.sql`model = ${query.model}`);
  return filters;
}

/** Most cited first, then A to Z: the domain or the URL names the group, so no id is needed. */
const byCitations = (name: string): SortColumn[] => [
  { column: 'citations', descending: true, type: 'int' },
  { column: name, type: 'text' },
];
const DOMAIN_ORDER = byCitations('domain');
const URL_ORDER = byCitations('url');

/** Cited domains, most cited first, with their share of every citation matching the filters. */
export async function citedDomains(
  sql: SqlReader,
  propertyIds: readonly string[],
  query: SourcesQuery,
  range: DayRange,
  page: Page,
): Promise<ListResult<SourceDomain>> {
  if (propertyIds.length === 0) return emptyList();
  const where = Prisma.join(citationFilters(propertyIds, query, range), ' AND ');
  const { rows, total } = await pageOfGroups(
    (page) =>
      sql.rows<{
        domain: string;
        citations: number;
        responses: number;
        all_citations: number;
        total_groups: number;
      }>(Prisma.sql`
      SELECT * FROM (
        SELECT domain, count(*)::int AS citations, count(DISTINCT response_id)::int AS responses,
          (sum(count(*)) OVER ())::int AS all_citations, (count(*) OVER ())::int AS total_groups
        FROM response_sources WHERE ${where}
        GROUP BY domain
      ) AS domains
      WHERE ${beyondCursor(DOMAIN_ORDER, page)} ${pageOrder(DOMAIN_ORDER, page)}`),
    page,
  );
  const { rows: kept, ...cursors } = cursorPage(rows, page, (row) => [row.citations, row.domain]);
  return {
    ...cursors,
    data: kept.map((row) => ({
      domain: row.domain,
      citations: row.citations,
      responses: row.responses,
      share: ratio(row.citations, row.all_citations),
    })),
    total,
  };
}

/** Cited URLs, most cited first, with the first and last day in the range each was cited. */
export async function citedUrls(
  sql: SqlReader,
  propertyIds: readonly string[],
  query: SourceUrlsQuery,
  range: DayRange,
  page: Page,
): Promise<ListResult<SourceUrl>> {
  if (propertyIds.length === 0) return emptyList();
  const filters = citationFilters(propertyIds, query, range);
  if (query.domain !== undefined) filters.push(Prisma.sql`domain = ${query.domain}`);
  const where = Prisma.join(filters, ' AND ');
  const { rows, total } = await pageOfGroups(
    (page) =>
      sql.rows<{
        url: string;
        domain: string;
        citations: number;
        responses: number;
        first_seen: string;
        last_seen: string;
        total_groups: number;
      }>(Prisma.sql`
      SELECT * FROM (
        SELECT url, domain, count(*)::int AS citations, count(DISTINCT response_id)::int AS responses,
          to_char(min(day), 'YYYY-MM-DD') AS first_seen, to_char(max(day), 'YYYY-MM-DD') AS last_seen,
          (count(*) OVER ())::int AS total_groups
        FROM response_sources WHERE ${where}
        GROUP BY url, domain
      ) AS urls
      WHERE ${beyondCursor(URL_ORDER, page)} ${pageOrder(URL_ORDER, page)}`),
    page,
  );
  const { rows: kept, ...cursors } = cursorPage(rows, page, (row) => [row.citations, row.url]);
  return {
    ...cursors,
    data: kept.map((row) => ({
      url: row.url,
      domain: row.domain,
      citations: row.citations,
      responses: row.responses,
      firstSeen: row.first_seen,
      lastSeen: row.last_seen,
    })),
    total,
  };
}
