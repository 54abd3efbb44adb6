import type { CursorPage, ListResponsesQuery, ResponseDetail, ResponseRow } from '@vt/contracts';
import { Prisma, type SqlReader } from '@vt/db';
import { beyondCursor, cursorPage, pageOrder, type SortColumn } from './keyset.ts';
import { emptyList, inDays, inProperties } from './list-result.ts';
import type { DayRange, Page } from './read-scope.ts';
import { RenderedJson } from './rendered-json.ts';

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
  truncated: string | null;
  source_urls: string[];
  property_id: string;
  property_name: string;
  text?: string;
}

// The row both endpoints share: the detail adds only `text`, so the two cannot differ elsewhere.
const RESPONSE_COLUMNS = Prisma.sql`
  r.id, r.prompt_id, p.text AS prompt, r.model, to_char(r.day, 'YYYY-MM-DD') AS date, r.mentioned,
  r.matched_term, r.position, r.sentiment, r.excerpt, r.country, r.language, r.truncated, pr.id AS property_id,
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
    truncated: record.truncated,
    property: { id: record.property_id, name: record.property_name },
  };
}

/** A page of /v1/responses with its rows as JSON text (`serializeAnswer` places it in the body). */
export interface RenderedList extends CursorPage {
  data: RenderedJson<ResponseRow[]>;
  total: number;
}

/** Newest day first, ties by id: the order of the (property_id, day DESC, id) indexes. */
const RESPONSE_ORDER: SortColumn[] = [
  { column: 'r.day', descending: true, type: 'date' },
  { column: 'r.id', type: 'uuid' },
];

/** Past this offset, one property's page walks only ids and fetches its rows after. */
const DEEP_OFFSET = 400;

/** What a page needs of each answer: its sort key, the joins' keys and its stored fragment. */
const PAGE_COLUMNS = Prisma.sql`r.id, r.day, r.prompt_id, r.property_id, r.list_fragment, r.truncated`;

/**
 * The page's answers. Usually they are read as the index walk visits each row: it visits the heap
 * anyway, to check the property when several are read, and fetching the rows again by id (the way
 * this was first written) cost Postgres about a fifth more per page. For one property deep in its
 * list, though, the (property_id, day, id) index answers the walk alone (an index-only scan), so
 * the skipped rows cost no heap visit: there the ids are walked first and only the page's rows
 * fetched (at offset 1,000 that was 1.4 against 2.0 ms).
 */
function pageOfResponses(where: Prisma.Sql, properties: number, page: Page): Prisma.Sql {
  const order = pageOrder(RESPONSE_ORDER, page);
  where = Prisma.sql`${where} AND ${beyondCursor(RESPONSE_ORDER, page)}`;
  if (properties === 1 && page.offset > DEEP_OFFSET) {
    return Prisma.sql`
      SELECT ${PAGE_COLUMNS}
      FROM (SELECT r.id FROM responses r WHERE ${where} ${order}) AS ids JOIN responses r ON r.id = ids.id`;
  }
  return Prisma.sql`SELECT ${PAGE_COLUMNS} FROM responses r WHERE ${where} ${order}`;
}

/**
 * A list row as JSON text, in the order and spelling of `toResponseRow` serialized: the stored
 * fragment (model to language, rendered by Postgres when the answer was written; see the
 * migration 20261126180000_response_list_rows) between the parts that change on their own, the
 * prompt's text and the property's name, joined as the page is read. `truncated` came after the
 * fragment was designed: rendered here beside it, since changing a generated column's expression
 * would rewrite every stored answer.
 */
const RENDERED_ROW = Prisma.sql`
  '{"id":"' || r.id || '","promptId":"' || r.prompt_id || '","prompt":' || to_json(p.text)::text || ','
    || r.list_fragment || ',"truncated":' || coalesce(to_json(r.truncated)::text, 'null')
    || ',"property":{"id":"' || r.property_id || '","name":' || to_json(pr.name)::text || '}}'`;

/**
 * Newest day first; ties by id so pages never overlap (matches the (day DESC, id) indexes). The
 * rows come rendered: the page's `data` is the JSON Postgres assembled from the stored fragments.
 */
export async function listResponses(
  sql: SqlReader,
  propertyIds: readonly string[],
  query: ListResponsesQuery,
  range: DayRange,
  page: Page,
): Promise<RenderedList> {
  if (propertyIds.length === 0) return { ...emptyList(), data: new RenderedJson<ResponseRow[]>('[]') };
  const filters = [inProperties('r.property_id', propertyIds), inDays('r.day', range)];
  if (query.promptId !== undefined) filters.push(Prisma.sql`r.prompt_id = ${query.promptId}::uuid`);
  if (query.model !== undefined) filters.push(Prisma.sql`r.model = ${query.model}`);
  if (query.mentioned !== undefined) filters.push(Prisma.sql`r.mentioned = ${query.mentioned}`);
  const where = Prisma.join(filters, ' AND ');

  const total = countOfResponses(propertyIds, query, range, where);
  // One statement for the page and its total (computed once, as an init plan): on a loaded
  // machine each round trip to Postgres costs both processes more than the count itself.
  const records = await sql.rows<{ date: string; id: string; row: string; total: number }>(Prisma.sql`
    WITH page AS MATERIALIZED (${pageOfResponses(where, propertyIds.length, page)})
    SELECT to_char(r.day, 'YYYY-MM-DD') AS date, r.id, ${RENDERED_ROW} AS row, (${total}) AS total
    FROM page r
    JOIN prompts p ON p.id = r.prompt_id
    JOIN properties pr ON pr.id = r.property_id
    ${pageOrder(RESPONSE_ORDER, { ...page, offset: 0 })}`);
  const { rows, ...cursors } = cursorPage(records, page, (record) => [record.date, record.id]);
  const data = new RenderedJson<ResponseRow[]>(`[${rows.map((record) => record.row).join(',')}]`);
  const first = records[0];
  if (first) return { data, total: first.total, ...cursors };
  // A page past the end (or nothing in range) has no row to carry the total.
  const [counted] = await sql.rows<{ total: number }>(Prisma.sql`SELECT (${total}) AS total`);
  return { data, total: counted?.total ?? 0, ...cursors };
}

/**
 * The full match count, as a scalar subquery. Without a prompt filter it is summed from counts the
 * writers' triggers keep: without a model filter from the totals per property and day (a row per
 * day, all models together), with one from the daily counts (a row per day and model). One
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
  const counts = query.model === undefined ? Prisma.sql`response_day_totals c` : Prisma.sql`response_daily_counts c`;
  return Prisma.sql`
    SELECT COALESCE(sum(${counted}), 0)::int FROM ${counts}
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
