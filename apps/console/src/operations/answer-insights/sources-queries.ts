import { SOURCES_TOP } from '@vt/contracts/console';
import { Prisma, type SqlReader } from '@vt/db';
import { byPlatformOrder } from './platform-order.ts';

// What AI answers cite for one property: read from response_sources (one row per URL an answer
// cites, with the answer's day and platform copied onto it so these never join the answers), and
// for the gaps from response_competitor_mentions and the answers' verdicts.

export interface SourcesFilter {
  propertyId: string;
  from: string;
  to: string;
  model: string | undefined;
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/** The filter on a table carrying property_id, day and model; `alias` is a constant of this file. */
function citationWhere(alias: string, f: SourcesFilter): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`${a}.property_id = ${f.propertyId}::uuid AND ${a}.day BETWEEN ${f.from}::date AND ${f.to}::date
    ${f.model === undefined ? Prisma.empty : Prisma.sql`AND ${a}.model = ${f.model}`}`;
}

/** A domain is the property's own when it is its domain or a subdomain of it. */
const ownDomain = (own: string) => Prisma.sql`(s.domain = ${own} OR right(s.domain, ${own.length + 1}) = ${`.${own}`})`;

interface CitedRow {
  key: string;
  domain: string;
  citations: number;
  answers: number;
  own: boolean;
  total: number;
}

/** The top rows of one grouping (by domain or by URL), most answers first, with the number of groups. */
function topCited(sql: SqlReader, f: SourcesFilter, own: string, by: 'domain' | 'url', onlyOwn: boolean) {
  // Grouped and ordered byte-wise ("C"): hosts and URLs are ASCII in practice, and the locale's
  // collation made the sort of a 90-day range's citations take half of the statement's time.
  const key = by === 'domain' ? Prisma.sql`s.domain COLLATE "C"` : Prisma.sql`s.url COLLATE "C"`;
  return sql.rows<CitedRow>(Prisma.sql`
    SELECT ${key} AS key, min(s.domain) AS domain, count(*)::int AS citations,
      count(DISTINCT s.response_id)::int AS answers, bool_or(${ownDomain(own)}) AS own,
      (count(*) OVER ())::int AS total
    FROM response_sources s
    WHERE ${citationWhere('s', f)} ${onlyOwn ? Prisma.sql`AND ${ownDomain(own)}` : Prisma.empty}
    GROUP BY 1 ORDER BY answers DESC, citations DESC, key LIMIT ${SOURCES_TOP}`);
}

/** The property's domain as response_sources writes domains: lower case, no leading www. */
export const bareDomain = (domain: string) => domain.toLowerCase().replace(/^www\./, '');

export async function answerSources(sql: SqlReader, f: SourcesFilter, propertyDomain: string) {
  const own = bareDomain(propertyDomain);
  const everyPlatform = { ...f, model: undefined };
  const [[counts], domains, urls, ownPages] = await Promise.all([
    sql.rows<{ answers: number; citing: number; platforms: string[] }>(Prisma.sql`
      SELECT
        (SELECT COALESCE(sum(c.responses), 0)::int FROM response_daily_counts c WHERE ${citationWhere('c', f)}) AS answers,
        (SELECT count(DISTINCT s.response_id)::int FROM response_sources s WHERE ${citationWhere('s', f)}) AS citing,
        ARRAY(SELECT DISTINCT c.model FROM response_daily_counts c
          WHERE ${citationWhere('c', everyPlatform)} AND c.responses > 0) AS platforms`),
    topCited(sql, f, own, 'domain', false),
    topCited(sql, f, own, 'url', false),
    topCited(sql, f, own, 'url', true),
  ]);
  const answers = counts?.answers ?? 0;
  const figures = (row: CitedRow) => ({
    citations: row.citations,
    answers: row.answers,
    shareOfAnswers: share(row.answers, answers),
    own: row.own,
  });
  return {
    ownDomain: own,
    platforms: [...(counts?.platforms ?? [])].sort(byPlatformOrder),
    answers,
    answersCiting: counts?.citing ?? 0,
    domainCount: domains[0]?.total ?? 0,
    urlCount: urls[0]?.total ?? 0,
    domains: domains.map((row) => ({ domain: row.key, ...figures(row) })),
    urls: urls.map((row) => ({ url: row.key, domain: row.domain, ...figures(row) })),
    ownPages: ownPages.map((row) => ({ url: row.key, ...figures(row) })),
  };
}

/**
 * Per platform, the domains cited in answers naming a tracked competitor and never in an answer
 * naming the brand (same platform, same range). An answer naming both names the brand: its
 * sources are the brand's, so they are never gaps. Each side starts from the answers (the brand's
 * from responses, the competitors' from their mentions) and reaches their sources by the sources'
 * primary key: right after a bulk import, before Postgres has analysed the tables, a join written
 * the other way round was planned as a nested loop over the range's index and took 10 s.
 */
export async function sourceGaps(sql: SqlReader, f: SourcesFilter) {
  const [gapRows, counts] = await Promise.all([
    sql.rows<{ model: string; domain: string; answers: number; competitors: string[]; gap_count: number }>(Prisma.sql`
      WITH brand_domains AS MATERIALIZED (
        SELECT DISTINCT s.model COLLATE "C" AS model, s.domain COLLATE "C" AS domain
        FROM responses r JOIN response_sources s ON s.response_id = r.id
        WHERE ${citationWhere('r', f)} AND r.mentioned
      ), beside_competitors AS MATERIALIZED (
        SELECT s.model COLLATE "C" AS model, s.domain COLLATE "C" AS domain,
          count(DISTINCT s.response_id)::int AS answers, array_agg(DISTINCT c.name ORDER BY c.name) AS competitors
        FROM response_competitor_mentions m
        JOIN response_sources s ON s.response_id = m.response_id
        JOIN competitors c ON c.id = m.competitor_id
        WHERE ${citationWhere('m', f)}
        GROUP BY 1, 2
      ), ranked AS (
        SELECT g.*, row_number() OVER (PARTITION BY g.model ORDER BY g.answers DESC, g.domain) AS n,
          (count(*) OVER (PARTITION BY g.model))::int AS gap_count
        FROM beside_competitors g
        WHERE NOT EXISTS (SELECT 1 FROM brand_domains b WHERE b.model = g.model AND b.domain = g.domain)
      )
      SELECT model, domain, answers, competitors, gap_count FROM ranked WHERE n <= ${SOURCES_TOP}
      ORDER BY model, n`),
    // Per platform with answers: those naming the brand from the daily counts, those naming a
    // competitor from the mentions (an answer naming two is one answer).
    sql.rows<{ model: string; naming_competitors: number; naming_brand: number }>(Prisma.sql`
      WITH brand AS (
        SELECT c.model, sum(c.mentions)::int AS naming_brand FROM response_daily_counts c
        WHERE ${citationWhere('c', f)} GROUP BY c.model HAVING sum(c.responses) > 0
      ), named AS (
        SELECT m.model, count(DISTINCT m.response_id)::int AS naming_competitors FROM response_competitor_mentions m
        WHERE ${citationWhere('m', f)} GROUP BY m.model
      )
      SELECT brand.model, COALESCE(named.naming_competitors, 0) AS naming_competitors, brand.naming_brand
      FROM brand LEFT JOIN named ON named.model = brand.model ORDER BY brand.model COLLATE "C"`),
  ]);
  return counts.map((c) => {
    const gaps = gapRows.filter((g) => g.model === c.model);
    return {
      model: c.model,
      answersNamingCompetitors: c.naming_competitors,
      answersNamingBrand: c.naming_brand,
      gapCount: gaps[0]?.gap_count ?? 0,
      gaps: gaps.map((g) => ({ domain: g.domain, answers: g.answers, competitors: g.competitors })),
    };
  });
}
