import { recentCatalogue } from '@vt/catalogue-store';
import { Prisma, type PrismaClient, sqlReaderOf } from '@vt/db';
import { categoriesOf } from './activity.ts';

/** Inclusive UTC days, yyyy-MM-dd. */
export interface DayRange {
  from: string;
  to: string;
}

/** What one property did over one period, kept per platform, competitor and crawler. */
export interface PeriodCounts {
  /** Answers per AI platform: collected, mentioning the brand, and the sentiments summed. */
  byModel: Map<string, { responses: number; mentions: number; sentimentCount: number; sentimentSum: number }>;
  /** Answers naming each tracked competitor, by the competitor's name. */
  competitors: Map<string, number>;
  /** Mentioning answers with a position, and their ranks summed (rank = 1 + competitors named first). */
  ranked: number;
  rankSum: number;
  /** AI crawler hits per crawler (dual-use ones only where the property counts them). */
  crawlers: Map<string, number>;
  /** AI-referred visits and AI-attributed leads per platform. */
  visits: Map<string, number>;
  leads: Map<string, number>;
}

export const emptyCounts = (): PeriodCounts => ({
  byModel: new Map(),
  competitors: new Map(),
  ranked: 0,
  rankSum: 0,
  crawlers: new Map(),
  visits: new Map(),
  leads: new Map(),
});

type Keyed = { property_id: string; idx: number; key: string; n: number };

/**
 * Each property's counts over each period, read from the daily count tables (responses, crawler
 * hits, referrals, leads) and the competitor mentions. The rank needs no answer row: the daily
 * counts say how many mentioning answers have a position, the mentions which competitors came
 * first. Periods may overlap: each row is joined to every period holding its day. Answers
 * `[property][period]`.
 */
export async function periodCounts(
  db: PrismaClient,
  properties: readonly { id: string; countDualUseAsAi: boolean }[],
  periods: readonly DayRange[],
): Promise<Map<string, PeriodCounts[]>> {
  const result = new Map(properties.map((p) => [p.id, periods.map(emptyCounts)]));
  if (properties.length === 0 || periods.length === 0) return result;
  const sql = sqlReaderOf(db);
  const ids = properties.map((p) => p.id);
  const first = periods.map((p) => p.from).sort()[0] as string;
  const last = periods.map((p) => p.to).sort()[periods.length - 1] as string;
  // The periods as a relation; the outer bounds let each table's (property_id, day) key do the work.
  const spans = Prisma.join(periods.map((p, i) => Prisma.sql`(${i}::int, ${p.from}::date, ${p.to}::date)`));
  const within = (column: string) => Prisma.sql`
    JOIN (VALUES ${spans}) AS span(idx, first_day, last_day) ON ${Prisma.raw(column)} BETWEEN span.first_day AND span.last_day
    WHERE t.property_id = ANY(${ids}::uuid[]) AND ${Prisma.raw(column)} BETWEEN ${first}::date AND ${last}::date`;
  const { dualUse } = categoriesOf(await recentCatalogue(db));
  const dualUseNames = dualUse.map((name) => name.toLowerCase());

  const [answers, named, crawlers, visits, leads] = await Promise.all([
    sql.rows<Keyed & { mentions: number; position_count: number; sentiment_count: number; sentiment_sum: number }>(
      Prisma.sql`
      SELECT t.property_id, span.idx, t.model AS key, sum(t.responses)::int AS n, sum(t.mentions)::int AS mentions,
        sum(t.position_count)::int AS position_count,
        sum(t.sentiment_count)::int AS sentiment_count, sum(t.sentiment_sum)::float8 AS sentiment_sum
      FROM response_daily_counts t ${within('t.day')} GROUP BY 1, 2, 3`,
    ),
    // Each competitor's mentions per day, with those named before the brand (kept on the mention
    // by a trigger): summed per day first, so the periods join a few hundred rows, not every mention.
    sql.rows<Keyed & { before_brand: number }>(Prisma.sql`
      WITH daily AS (
        SELECT property_id, day, competitor_id, count(*) AS mentions, count(*) FILTER (WHERE before_brand) AS before_brand
        FROM response_competitor_mentions
        WHERE property_id = ANY(${ids}::uuid[]) AND day BETWEEN ${first}::date AND ${last}::date
        GROUP BY 1, 2, 3
      )
      SELECT t.property_id, span.idx, c.name AS key, sum(t.mentions)::int AS n, sum(t.before_brand)::int AS before_brand
      FROM daily t JOIN competitors c ON c.id = t.competitor_id ${within('t.day')}
      GROUP BY 1, 2, 3`),
    sql.rows<Keyed>(Prisma.sql`
      SELECT t.property_id, span.idx, t.crawler AS key, sum(t.hits)::int AS n
      FROM crawler_daily_counts t JOIN properties p ON p.id = t.property_id ${within('t.day')}
        AND (p.count_dual_use_as_ai OR lower(t.crawler) <> ALL(${dualUseNames}::text[]))
      GROUP BY 1, 2, 3`),
    sql.rows<Keyed>(Prisma.sql`
      SELECT t.property_id, span.idx, t.platform AS key, sum(t.visits)::int AS n
      FROM ai_referral_daily_counts t ${within('t.day')} GROUP BY 1, 2, 3`),
    sql.rows<Keyed>(Prisma.sql`
      SELECT t.property_id, span.idx, t.platform AS key, sum(t.leads)::int AS n
      FROM ai_lead_daily_counts t ${within('t.day')} GROUP BY 1, 2, 3`),
  ]);

  const slot = (row: { property_id: string; idx: number }) => result.get(row.property_id)?.[row.idx] ?? emptyCounts();
  for (const row of answers) {
    const counts = slot(row);
    // Every answer with a position is ranked: 1 to start with, plus the competitors named before it.
    counts.ranked += row.position_count;
    counts.rankSum += row.position_count;
    counts.byModel.set(row.key, {
      responses: row.n,
      mentions: row.mentions,
      sentimentCount: row.sentiment_count,
      sentimentSum: row.sentiment_sum,
    });
  }
  for (const row of named) {
    const counts = slot(row);
    counts.competitors.set(row.key, row.n);
    counts.rankSum += row.before_brand;
  }
  for (const row of crawlers) slot(row).crawlers.set(row.key, row.n);
  for (const row of visits) slot(row).visits.set(row.key, row.n);
  for (const row of leads) slot(row).leads.set(row.key, row.n);
  return result;
}

/** Several periods' counts added together (the team total). */
export function addCounts(all: readonly PeriodCounts[]): PeriodCounts {
  const sum = emptyCounts();
  const add = (into: Map<string, number>, from: Map<string, number>) => {
    for (const [key, n] of from) into.set(key, (into.get(key) ?? 0) + n);
  };
  for (const counts of all) {
    for (const [model, c] of counts.byModel) {
      const into = sum.byModel.get(model) ?? { responses: 0, mentions: 0, sentimentCount: 0, sentimentSum: 0 };
      into.responses += c.responses;
      into.mentions += c.mentions;
      into.sentimentCount += c.sentimentCount;
      into.sentimentSum += c.sentimentSum;
      sum.byModel.set(model, into);
    }
    add(sum.competitors, counts.competitors);
    sum.ranked += counts.ranked;
    sum.rankSum += counts.rankSum;
    add(sum.crawlers, counts.crawlers);
    add(sum.visits, counts.visits);
    add(sum.leads, counts.leads);
  }
  return sum;
}
