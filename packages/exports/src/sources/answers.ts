import { aiPlatformName } from '@vt/attribution';
import { sentimentInWords } from '@vt/contracts/console';
import { formatUtcDay, Prisma } from '@vt/db';
import type { ExportSourceFactory } from '../export-source.ts';
import { yesNo } from '../export-source.ts';

interface AnswerRow {
  id: string;
  day: string;
  model: string;
  prompt: string;
  mentioned: boolean;
  matchedTerm: string | null;
  position: number | null;
  sentiment: number | null;
  excerpt: string;
  competitorsBefore: number;
  competitors: string[] | null;
  sources: string[] | null;
}

/**
 * Every answer collected for the property in the range with its verdict, oldest day first, then
 * platform and prompt. The excerpt, not the whole answer: whole answers run to thousands of
 * characters of markdown over many lines, which spreadsheets show badly (and Excel cuts at 32,767
 * characters); the answer id finds the whole text in the console or on /v1/responses/{id}.
 */
export const answersSource: ExportSourceFactory = async ({ sql }, scope) => ({
  columns: [
    'Date',
    'Platform',
    'Prompt',
    'Brand mentioned',
    'Matched term',
    'Rank among brands',
    'Brands named',
    'First mention at character',
    'Sentiment',
    'Sentiment in words',
    'Competitors named',
    'Cited sources',
    'Excerpt',
    'Answer id',
  ],
  page: (after: AnswerRow | null, limit: number) =>
    // The (property, day, id) index walks the range a day at a time, so the sort by platform and
    // prompt is done within a day (incremental sort) and a page stops after its rows.
    sql.rows<AnswerRow>(Prisma.sql`
      SELECT r.id, to_char(r.day, 'YYYY-MM-DD') AS day, r.model, p.text AS prompt, r.mentioned,
        r.matched_term AS "matchedTerm", r.position, r.sentiment::float8 AS sentiment, r.excerpt,
        (SELECT count(*) FILTER (WHERE m.before_brand)::int FROM response_competitor_mentions m
          WHERE m.response_id = r.id) AS "competitorsBefore",
        (SELECT json_agg(c.name ORDER BY m.position, c.name) FROM response_competitor_mentions m
          JOIN competitors c ON c.id = m.competitor_id WHERE m.response_id = r.id) AS competitors,
        (SELECT json_agg(s.url ORDER BY s.ordinal) FROM response_sources s WHERE s.response_id = r.id) AS sources
      FROM responses r JOIN prompts p ON p.id = r.prompt_id
      WHERE r.property_id = ${scope.propertyId}::uuid
        AND r.day BETWEEN ${formatUtcDay(scope.from)}::date AND ${formatUtcDay(scope.to)}::date
        ${
          after
            ? Prisma.sql`AND r.day >= ${after.day}::date AND (r.day, r.model, p.text) > (${after.day}::date, ${after.model}, ${after.prompt})`
            : Prisma.empty
        }
      ORDER BY r.day, r.model, p.text
      LIMIT ${limit}`),
  cells: (row: AnswerRow) => {
    const competitors = row.competitors ?? [];
    // As the console ranks: 1 + the tracked competitors first named before the brand.
    const rank = row.position === null ? null : row.competitorsBefore + 1;
    return [
      row.day,
      aiPlatformName(row.model),
      row.prompt,
      yesNo(row.mentioned),
      row.matchedTerm,
      rank,
      competitors.length + (row.position === null ? 0 : 1),
      row.position,
      row.sentiment === null ? null : Math.round(row.sentiment * 1000) / 1000,
      sentimentInWords(row.sentiment),
      competitors.join('; '),
      // A URL never holds a space: one space between them splits back cleanly.
      (row.sources ?? []).join(' '),
      row.excerpt,
      row.id,
    ];
  },
});
