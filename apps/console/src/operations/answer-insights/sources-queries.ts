import { SOURCES_TOP } from '@vt/contracts/console';
import { Prisma, type SqlReader } from '@vt/db';

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
  const key = by === 'domain' ? Prisma.sql`s.domain` : Prisma.sql`s.url`;
  return sql.rows<CitedRow>(Prisma.sql`
    SELECT ${key} AS key, min(s.domain) AS domain, count(*)::int AS citations,
      count(DISTINCT s.response_id)::int AS answers, bool_or(${ownDomain(own)}) AS own,
      (count(*) OVER ())::int AS total
    FROM response_sources s
    WHERE ${citationWhere('s', f)} ${onlyOwn ? Prisma.sql`AND ${ownDomain(own)}` : Prisma.empty}
    GROUP BY ${key} ORDER BY answers DESC, citations DESC, key LIMIT ${SOURCES_TOP}`);
}

/** The property's domain as response_sources writes domains: lower case, no leading www. */
export const bareDomain = (domain: string) => domain.toLowerCase().replace(/^www\./, '');

export async function answerSources(sql: SqlReader, f: SourcesFilter, propertyDomain: string) {
  const own = bareDomain(propertyDomain);
  const [[counts], domains, urls, ownPages] = await Promise.all([
    sql.rows<{ answers: number; citing: number }>(Prisma.sql`
      SELECT
        (SELECT COALESCE(sum(c.responses), 0)::int FROM response_daily_counts c WHERE ${citationWhere('c', f)}) AS answers,
        (SELECT count(DISTINCT s.response_id)::int FROM response_sources s WHERE ${citationWhere('s', f)}) AS citing`),
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
 * sources are the brand's, so they are never gaps.
 */
export async function sourceGaps(sql: SqlReader, f: SourcesFilter) {
  const [gapRows, counts] = await Promise.all([
    sql.rows<{ model: string; domain: string; answers: number; competitors: string[]; gap_count: number }>(Prisma.sql`
      WITH brand_domains AS (
        SELECT DISTINCT s.model, s.domain FROM response_sources s JOIN responses r ON r.id = s.response_id
        WHERE ${citationWhere('s', f)} AND r.mentioned
      ), gaps AS (
        SELECT s.model, s.domain, count(DISTINCT s.response_id)::int AS answers,
          array_agg(DISTINCT c.name ORDER BY c.name) AS competitors
        FROM response_sources s
        JOIN response_competitor_mentions m ON m.response_id = s.response_id
        JOIN competitors c ON c.id = m.competitor_id
        WHERE ${citationWhere('s', f)}
          AND NOT EXISTS (SELECT 1 FROM brand_domains b WHERE b.model = s.model AND b.domain = s.domain)
        GROUP BY s.model, s.domain
      ), ranked AS (
        SELECT *, row_number() OVER (PARTITION BY model ORDER BY answers DESC, domain) AS n,
          (count(*) OVER (PARTITION BY model))::int AS gap_count
        FROM gaps
      )
      SELECT model, domain, answers, competitors, gap_count FROM ranked WHERE n <= ${SOURCES_TOP}
      ORDER BY model, n`),
    sql.rows<{ model: string; naming_competitors: number; naming_brand: number }>(Prisma.sql`
      SELECT r.model,
        count(*) FILTER (WHERE EXISTS (SELECT 1 FROM response_competitor_mentions m WHERE m.response_id = r.id))::int
          AS naming_competitors,
        count(*) FILTER (WHERE r.mentioned)::int AS naming_brand
      FROM responses r WHERE ${citationWhere('r', f)}
      GROUP BY r.model ORDER BY r.model`),
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
