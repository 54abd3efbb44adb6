import type { ListResponsesQuery, ResponseDetail, ResponseRow } from '@vt/contracts';
import { Prisma, type PrismaClient } from '@vt/db';
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
  source_urls: string[];
  property_id: string;
  property_name: string;
  text?: string;
}

// The row both endpoints share: the detail adds only `text`, so the two cannot differ elsewhere.
const RESPONSE_COLUMNS = Prisma.sql`
  r.id, r.prompt_id, p.text AS prompt, r.model, to_char(r.day, 'YYYY-MM-DD') AS date, r.mentioned,
  r.matched_term, r.position, r.sentiment, r.excerpt, pr.id AS property_id, pr.name AS property_name,
  ARRAY(SELECT s.url FROM response_sources s WHERE s.response_id = r.id ORDER BY s.ordinal) AS source_urls`;

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
    property: { id: record.property_id, name: record.property_name },
  };
}

/** Newest day first; ties by id so pages never overlap (matches the (day DESC, id) indexes). */
export async function listResponses(
  db: PrismaClient,
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

  // The page and the count run side by side on two pooled connections.
  const [records, counted] = await Promise.all([
    db.$queryRaw<ResponseRecord[]>`
      WITH page AS (
        SELECT r.id FROM responses r WHERE ${where}
        ORDER BY r.day DESC, r.id LIMIT ${page.limit} OFFSET ${page.offset}
      )
      SELECT ${RESPONSE_COLUMNS}
      FROM page JOIN responses r ON r.id = page.id
      JOIN prompts p ON p.id = r.prompt_id
      JOIN properties pr ON pr.id = r.property_id
      ORDER BY r.day DESC, r.id`,
    countResponses(db, propertyIds, query, range, where),
  ]);
  return { data: records.map(toResponseRow), total: counted };
}

/**
 * The full match count. Without a prompt filter it is summed from the daily counts (a row per
 * property, day and model) instead of counting every answer of the range; one prompt's answers
 * are few, and are counted directly.
 */
async function countResponses(
  db: PrismaClient,
  propertyIds: readonly string[],
  query: ListResponsesQuery,
  range: DayRange,
  where: Prisma.Sql,
): Promise<number> {
  if (query.promptId !== undefined) {
    const [row] = await db.$queryRaw<
      { total: number }[]
    >`SELECT count(*)::int AS total FROM responses r WHERE ${where}`;
    return row?.total ?? 0;
  }
  const counted =
    query.mentioned === undefined
      ? Prisma.sql`c.responses`
      : query.mentioned
        ? Prisma.sql`c.mentions`
        : Prisma.sql`c.responses - c.mentions`;
  const [row] = await db.$queryRaw<{ total: number }[]>`
    SELECT COALESCE(sum(${counted}), 0)::int AS total FROM response_daily_counts c
    WHERE ${inProperties('c.property_id', propertyIds)}
      AND ${inDays('c.day', range)}
      ${query.model === undefined ? Prisma.empty : Prisma.sql`AND c.model = ${query.model}`}`;
  return row?.total ?? 0;
}

export async function findResponse(
  db: PrismaClient,
  propertyIds: readonly string[],
  id: string,
): Promise<ResponseDetail | null> {
  if (propertyIds.length === 0) return null;
  const [record] = await db.$queryRaw<ResponseRecord[]>`
    SELECT ${RESPONSE_COLUMNS}, r.text
    FROM responses r
    JOIN prompts p ON p.id = r.prompt_id
    JOIN properties pr ON pr.id = r.property_id
    WHERE r.id = ${id}::uuid AND ${inProperties('r.property_id', propertyIds)}`;
  return record ? { ...toResponseRow(record), text: record.text ?? '' } : null;
}
