import { sentimentInWords } from '@vt/contracts/console';
import { addUtcDays, formatUtcDay, Prisma, type SqlReader, utcDay } from '@vt/db';
import { byPlatformOrder } from './platform-order.ts';

// Each prompt × platform of one property: the newest verdict and how often the brand was named
// recently. One row per (prompt, platform) from the responses' (prompt_id, day DESC) index.

/** How far back a platform and a latest verdict are looked for: the console's longest range. */
const LOOKBACK_DAYS = 366;

interface CellRow {
  prompt_id: string;
  model: string;
  response_id: string;
  date: string;
  mentioned: boolean;
  position: number | null;
  sentiment: number | null;
  competitors_named: number;
  competitors_before: number;
  mentioned_days: number;
  answered_days: number;
  previous_mentioned_days: number;
  previous_answered_days: number;
}

export async function promptMatrix(sql: SqlReader, propertyId: string, now: Date, trendDays: number) {
  const today = utcDay(now);
  const asOf = formatUtcDay(today);
  const currentFrom = formatUtcDay(addUtcDays(today, 1 - trendDays));
  const previousFrom = formatUtcDay(addUtcDays(today, 1 - 2 * trendDays));
  const since = formatUtcDay(addUtcDays(today, 1 - LOOKBACK_DAYS));
  const [prompts, cells] = await Promise.all([
    sql.rows<{ id: string; text: string; active: boolean }>(Prisma.sql`
      SELECT id, text, active FROM prompts WHERE property_id = ${propertyId}::uuid ORDER BY active DESC, created_at, id`),
    sql.rows<CellRow>(Prisma.sql`
      WITH latest AS (
        SELECT DISTINCT ON (r.prompt_id, r.model) r.prompt_id, r.model, r.id, r.day, r.mentioned, r.position, r.sentiment
        FROM responses r
        WHERE r.property_id = ${propertyId}::uuid AND r.day BETWEEN ${since}::date AND ${asOf}::date
        ORDER BY r.prompt_id, r.model, r.day DESC
      ), trend AS (
        SELECT r.prompt_id, r.model,
          count(*) FILTER (WHERE r.day >= ${currentFrom}::date AND r.mentioned)::int AS mentioned_days,
          count(*) FILTER (WHERE r.day >= ${currentFrom}::date)::int AS answered_days,
          count(*) FILTER (WHERE r.day < ${currentFrom}::date AND r.mentioned)::int AS previous_mentioned_days,
          count(*) FILTER (WHERE r.day < ${currentFrom}::date)::int AS previous_answered_days
        FROM responses r
        WHERE r.property_id = ${propertyId}::uuid AND r.day BETWEEN ${previousFrom}::date AND ${asOf}::date
        GROUP BY r.prompt_id, r.model
      )
      SELECT l.prompt_id, l.model, l.id AS response_id, to_char(l.day, 'YYYY-MM-DD') AS date, l.mentioned,
        l.position, l.sentiment,
        (SELECT count(*)::int FROM response_competitor_mentions m WHERE m.response_id = l.id) AS competitors_named,
        (SELECT count(*)::int FROM response_competitor_mentions m
          WHERE m.response_id = l.id AND m.before_brand) AS competitors_before,
        COALESCE(t.mentioned_days, 0) AS mentioned_days, COALESCE(t.answered_days, 0) AS answered_days,
        COALESCE(t.previous_mentioned_days, 0) AS previous_mentioned_days,
        COALESCE(t.previous_answered_days, 0) AS previous_answered_days
      FROM latest l LEFT JOIN trend t ON t.prompt_id = l.prompt_id AND t.model = l.model`),
  ]);
  const platforms = [...new Set(cells.map((c) => c.model))].sort(byPlatformOrder);
  const byKey = new Map(cells.map((c) => [`${c.prompt_id}/${c.model}`, c]));
  return {
    asOf,
    trendDays,
    platforms,
    prompts: prompts.map((p) => ({
      id: p.id,
      text: p.text,
      active: p.active,
      cells: platforms.map((model) => {
        const c = byKey.get(`${p.id}/${model}`);
        return {
          model,
          latest: c ? verdictOf(c) : null,
          trend: {
            mentionedDays: c?.mentioned_days ?? 0,
            answeredDays: c?.answered_days ?? 0,
            previousMentionedDays: c?.previous_mentioned_days ?? 0,
            previousAnsweredDays: c?.previous_answered_days ?? 0,
          },
        };
      }),
    })),
  };
}

function verdictOf(c: CellRow) {
  // A verdict without a mention carries no mention details, whatever was stored (as /v1 reads it).
  const mentioned = c.mentioned;
  const sentiment = mentioned ? c.sentiment : null;
  return {
    responseId: c.response_id,
    date: c.date,
    mentioned,
    rank: mentioned && c.position !== null ? 1 + c.competitors_before : null,
    brandsNamed: c.competitors_named + (mentioned ? 1 : 0),
    sentiment,
    sentimentWord: sentimentInWords(sentiment),
  };
}
