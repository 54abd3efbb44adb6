import type { ListResponsesQuery, ResponseDetail, ResponseRow } from '@vt/contracts';
import { Prisma, type SqlReader } from '@vt/db';
import { beyondCursor, cursorPage, pageOrder, type SortColumn } from './keyset.ts';
import { emptyList, inDays, inProperties, type ListResult } from './list-result.ts';
import type { DayRange, Page } from './read-scope.ts';

interface ResponseRecord {
  id: string;
  prompt_id: string;
  prompt: string;
  model: string;
  date: string;
  mentioned: boolean;
  matched_term: string | null;
  position: number | null;
  sentiment: number | null;
  excerpt: string;
  country: string | null;
  language: string | null;
  source_urls: string[];
  property_id: string;
  property_name: string;
  text?: string;
}

// The row both endpoints share: the detail adds only `text`, so the two cannot differ elsewhere.
const RESPONSE_COLUMNS = Prisma.sql`
  r.id, r.prompt_id, p.text AS prompt, r.model, to_char(r.day, 'YYYY-MM-DD') AS date, r.mentioned,
  r.matched_term, r.position, r.sentiment, r.excerpt, r.country, r.language, pr.id AS property_id,
  pr.name AS property_name,
  to_json(ARRAY(SELECT s.url FROM response_sources s WHERE s.response_id = r.id ORDER BY s.ordinal)) AS source_urls`;

function toResponseRow(record: ResponseRecord): ResponseRow {
  // A verdict without a mention never carries mention details, whatever the collector stored.
  const mentioned = record.mentioned;
  return {
    id: record.id,
    promptId: record.prompt_id,
    prompt: record.prompt,
    model: record.model,
    date: record.date,
    mentioned,
    matchedTerm: mentioned ? record.matched_term : null,
    position: mentioned ? record.position : null,
    sentiment: mentioned ? record.sentiment : null,
    excerpt: record.excerpt,
    sourceUrls: record.source_urls,
    country: record.country,
    language: record.language,
    property: { id: record.property_id, name: record.property_name },
  };
}

/** Newest day first, ties by id: the order of the (property_id, day DESC, id) indexes. */
const RESPONSE_ORDER: SortColumn[] = [
  { column: 'r.day', descending: true, type: 'date' },
  { column: 'r.id', type: 'uuid' },
];

/** Past this offset, one property's page walks only ids and fetches its rows after. */
const DEEP_OFFSET = 400;

/**
 * The page's answers with the columns the row needs. Usually they are read as the index walk
 * visits each row: it visits the heap anyway, to check the property when several are read, and
 * fetching the rows again by id (the way this was first written) cost Postgres about a fifth more
 * per page. For one property deep in its list, though, the (property_id, day, id) index answers
 * the walk alone (an index-only scan), so the skipped rows cost no heap visit: there the ids are
 * walked first and only the page's rows fetched (at offset 1,000 that was 1.4 against 2.0 ms).
 */
function pageOfResponses(where: Prisma.Sql, properties: number, page: Page): Prisma.Sql {
  const order = pageOrder(RESPONSE_ORDER, page);
  where = Prisma.sql`${where} AND ${beyondCursor(RESPONSE_ORDER, page)}`;
  if (properties === 1 && page.offset > DEEP_OFFSET) {
    return Prisma.sql`
      SELECT r.id, r.prompt_id, r.model, r.day, r.mentioned, r.matched_term, r.position, r.sentiment, r.excerpt,
        r.country, r.language, r.property_id
      FROM (SELECT r.id FROM responses r WHERE ${where} ${order}) AS ids JOIN responses r ON r.id = ids.id`;
  }
  return Prisma.sql`
    SELECT r.id, r.prompt_id, r.model, r.day, r.mentioned, r.matched_term, r.position, r.sentiment, r.excerpt,
      r.country, r.language, r.property_id
    FROM responses r WHERE ${where} ${order}`;
}

/** Newest day first; ties by id so pages never overlap (matches the (day DESC, id) indexes). */
export async function listResponses(
  sql: SqlReader,
  propertyIds: readonly string[],
  query: ListResponsesQuery,
  range: DayRange,
  page: Page,
): Promise<ListResult<ResponseRow>> {
  if (propertyIds.length === 0) return emptyList();
  const filters = [inProperties('r.property_id', propertyIds), inDays('r.day', range)];
  if (query.promptId !== undefined) filters.push(Prisma.sql`r.prompt_id = ${query.promptId}::uuid`);
  if (query.model !== undefined) filters.push(Prisma.sql`r.model = ${query.model}`);
  if (query.mentioned !== undefined) filters.push(Prisma.sql`r.mentioned = ${query.mentioned}`);
  const where = Prisma.join(filters, ' AND ');

  const total = countOfResponses(propertyIds, query, range, where);
  // One statement for the page and its total (computed once, as an init plan): on a loaded
  // machine each round trip to Postgres costs both processes more than the count itself.
  const records = await sql.rows<ResponseRecord & { total: number }>(Prisma.sql`
    WITH page AS MATERIALIZED (${pageOfResponses(where, propertyIds.length, page)})
    SELECT ${RESPONSE_COLUMNS}, (${total}) AS total
    FROM page r
    JOIN prompts p ON p.id = r.prompt_id
    JOIN properties pr ON pr.id = r.property_id
    ${pageOrder(RESPONSE_ORDER, { ...page, offset: 0 })}`);
  const { rows, ...cursors } = cursorPage(records, page, (record) => [record.date, record.id]);
  const first = records[0];
  if (first) return { data: rows.map(toResponseRow), total: first.total, ...cursors };
  // A page past the end (or nothing in range) has no row to carry the total.
  const [counted] = await sql.rows<{ total: number }>(Prisma.sql`SELECT (${total}) AS total`);
  return { data: [], total: counted?.total ?? 0, ...cursors };
}

/**
 * The full match count, as a scalar subquery. Without a prompt filter it is summed from the daily
 * counts (a row per property, day and model) instead of counting every answer of the range; one
 * prompt's answers are few, and are counted directly.
 */
function countOfResponses(
  propertyIds: readonly string[],
  query: ListResponsesQuery,
  range: DayRange,
  where: Prisma.Sql,
): Prisma.Sql {
  if (query.promptId !== undefined) return Prisma.sql`SELECT count(*)::int FROM responses r WHERE ${where}`;
  const counted =
    query.mentioned === undefined
      ? Prisma.sql`c.responses`
      : query.mentioned
        ? Prisma.sql`c.mentions`
        : Prisma.sql`c.responses - c.mentions`;
  return Prisma.sql`
    SELECT COALESCE(sum(${counted}), 0)::int FROM response_daily_counts c
    WHERE ${inProperties('c.property_id', propertyIds)}
      AND ${inDays('c.day', range)}
      ${query.model === undefined ? Prisma.empty : Prisma.sql`AND c.model = ${query.model}`}`;
}

export async function findResponse(
  sql: SqlReader,
  propertyIds: readonly string[],
  id: string,
): Promise<ResponseDetail | null> {
  if (propertyIds.length === 0) return null;
  const [record] = await sql.rows<ResponseRecord>(Prisma.sql`
    SELECT ${RESPONSE_COLUMNS}, r.text
    FROM responses r
    JOIN prompts p ON p.id = r.prompt_id
    JOIN properties pr ON pr.id = r.property_id
    WHERE r.id = ${id}::uuid AND ${inProperties('r.property_id', propertyIds)}`);
  return record ? { ...toResponseRow(record), text: record.text ?? '' } : null;
}
