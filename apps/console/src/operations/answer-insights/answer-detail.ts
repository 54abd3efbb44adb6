import { judgingTermsFrom } from '@vt/answers';
import { OperationError, rankAmongBrands, sentimentInWords } from '@vt/contracts/console';
import { Prisma, type SqlReader } from '@vt/db';
import { namedSpans } from '@vt/verdict';

interface AnswerRecord {
  id: string;
  prompt_id: string;
  prompt: string;
  model: string;
  date: string;
  mentioned: boolean;
  matched_term: string | null;
  position: number | null;
  sentiment: number | null;
  text: string;
  country: string | null;
  language: string | null;
  truncated: string | null;
  citations: { url: string; domain: string }[];
  competitors: { id: string; name: string; position: number }[];
}

/**
 * One answer of one property, whole: its verdict, the competitors it names, its citations, and
 * where the brand's and competitors' names are in its text, found with the property's current
 * terms exactly as the verdict finds them. Another property's answer is a 404 like a missing one.
 * Two statements in parallel (the answer with its citations and names; the competitors' terms):
 * on a loaded machine each round trip costs more than the reading.
 */
export async function answerDetail(
  sql: SqlReader,
  property: { id: string; name: string; domain: string; brandTerms: string[] },
  responseId: string,
) {
  const [[record], tracked] = await Promise.all([
    sql.rows<AnswerRecord>(Prisma.sql`
      SELECT r.id, r.prompt_id, p.text AS prompt, r.model, to_char(r.day, 'YYYY-MM-DD') AS date, r.mentioned,
        r.matched_term, r.position, r.sentiment, r.text, r.country, r.language, r.truncated,
        COALESCE((SELECT json_agg(json_build_object('url', s.url, 'domain', s.domain) ORDER BY s.ordinal)
          FROM response_sources s WHERE s.response_id = r.id), '[]') AS citations,
        COALESCE((SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'position', m.position)
            ORDER BY m.position, c.name)
          FROM response_competitor_mentions m JOIN competitors c ON c.id = m.competitor_id
          WHERE m.response_id = r.id), '[]') AS competitors
      FROM responses r JOIN prompts p ON p.id = r.prompt_id
      WHERE r.id = ${responseId}::uuid AND r.property_id = ${property.id}::uuid`),
    sql.rows<{ id: string; name: string; domain: string | null; terms: string[] }>(Prisma.sql`
      SELECT id, name, domain, terms FROM competitors WHERE property_id = ${property.id}::uuid`),
  ]);
  if (!record) throw new OperationError('NOT_FOUND', 'No such answer in this property.');
  // A verdict without a mention carries no mention details, whatever was stored (as /v1 reads it).
  const mentioned = record.mentioned;
  const position = mentioned ? record.position : null;
  const sentiment = mentioned ? record.sentiment : null;
  const names = new Map(tracked.map((c) => [c.id, c.name]));
  return {
    id: record.id,
    promptId: record.prompt_id,
    prompt: record.prompt,
    model: record.model,
    date: record.date,
    mentioned,
    matchedTerm: mentioned ? record.matched_term : null,
    position,
    rank: rankAmongBrands(
      position,
      record.competitors.map((c) => c.position),
    ),
    brandsNamed: record.competitors.length + (mentioned ? 1 : 0),
    sentiment,
    sentimentWord: sentimentInWords(sentiment),
    text: record.text,
    country: record.country,
    language: record.language,
    truncated: record.truncated,
    competitors: record.competitors,
    citations: record.citations,
    highlights: namedSpans(record.text, judgingTermsFrom(property, tracked)).map((span) => ({
      start: span.start,
      end: span.end,
      kind: span.competitorId === null ? ('brand' as const) : ('competitor' as const),
      name: span.competitorId === null ? property.name : (names.get(span.competitorId) ?? ''),
    })),
  };
}
