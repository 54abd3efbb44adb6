import {
  type AgentCatalogue,
  type AgentCategory,
  agentCategories,
  aiPlatformName,
  countsAsAi,
  crawlerOperatorName,
  UNCLASSIFIED_PLATFORM,
} from '@vt/attribution';
import { recentCatalogue } from '@vt/catalogue-store';
import { formatUtcDay, type PrismaClient } from '@vt/db';

/** The recent-leads feed shows this many leads, newest first. */
const RECENT_LEADS_SHOWN = 50;
/** Top pages and landing paths shown. */
const TOP_SHOWN = 20;

const descending = <T extends { [k: string]: unknown }>(rows: T[], key: keyof T) =>
  rows.sort((a, b) => Number(b[key]) - Number(a[key]));

/**
 * A catalogue's category lookup and the names it files as dual-use (as counts are stored under
 * them), worked out once per catalogue version rather than per request.
 */
const byCatalogue = new WeakMap<
  AgentCatalogue,
  { categoryOf: ReturnType<typeof agentCategories>; dualUse: string[] }
>();
export function categoriesOf(catalogue: AgentCatalogue) {
  let found = byCatalogue.get(catalogue);
  if (!found) {
    const dualUse = catalogue.agents.filter((a) => a.category === 'dual-use');
    found = { categoryOf: agentCategories(catalogue), dualUse: dualUse.flatMap((a) => [a.name, ...(a.tokens ?? [])]) };
    byCatalogue.set(catalogue, found);
  }
  return found;
}

/**
 * Crawl activity over inclusive UTC days (CRAWL-31): daily AI-crawler hits by verification, hits
 * per crawler and per category, the most-read pages (all time: the page inventory has no days),
 * and AI-referred visits by platform, by day and by landing path. Dual-use crawlers are listed
 * with their category but left out of the daily AI hits and the top pages unless the property
 * counts them (`countDualUseAsAi`).
 */
export async function crawlActivity(
  db: PrismaClient,
  property: { id: string; countDualUseAsAi: boolean },
  from: Date,
  to: Date,
) {
  const propertyId = property.id;
  const includeDualUse = property.countDualUseAsAi;
  // The catalogue the gateways match with, so an agent a refresh added has its category here too.
  const catalogue = await recentCatalogue(db);
  const { categoryOf, dualUse } = categoriesOf(catalogue);
  const where = { propertyId, day: { gte: from, lte: to } };
  const [daily, pages, referrals] = await Promise.all([
    db.crawlerDailyCount.findMany({ where, orderBy: { day: 'asc' } }),
    db.crawledPage.groupBy({
      by: ['path'],
      where: { propertyId, ...(includeDualUse ? {} : { crawler: { notIn: dualUse } }) },
      _sum: { hits: true },
      _min: { firstSeenAt: true },
      _max: { lastSeenAt: true },
      orderBy: { _sum: { hits: 'desc' } },
      take: TOP_SHOWN,
    }),
    db.aiReferralDailyCount.findMany({ where, orderBy: { day: 'asc' } }),
  ]);

  const byDay = new Map<
    string,
    { date: string; hits: number; verified: number; unverified: number; unverifiable: number }
  >();
  type Tally = { hits: number; verified: number; countedAsAi: boolean };
  const byCrawler = new Map<
    string,
    Tally & { crawler: string; operator: string; operatorName: string; category: AgentCategory | null }
  >();
  const byCategory = new Map<AgentCategory | null, Tally & { category: AgentCategory | null }>();
  for (const row of daily) {
    const category = categoryOf(row.crawler);
    const countedAsAi = countsAsAi(category, includeDualUse);
    const crawler = byCrawler.get(row.crawler) ?? {
      crawler: row.crawler,
      operator: row.operator,
      operatorName: crawlerOperatorName(row.operator, catalogue),
      category,
      hits: 0,
      verified: 0,
      countedAsAi,
    };
    crawler.hits += row.hits;
    if (row.verification === 'verified') crawler.verified += row.hits;
    byCrawler.set(row.crawler, crawler);
    const group = byCategory.get(category) ?? { category, hits: 0, verified: 0, countedAsAi };
    group.hits += row.hits;
    if (row.verification === 'verified') group.verified += row.hits;
    byCategory.set(category, group);
    if (!countedAsAi) continue;
    const date = formatUtcDay(row.day);
    const day = byDay.get(date) ?? { date, hits: 0, verified: 0, unverified: 0, unverifiable: 0 };
    day.hits += row.hits;
    day[row.verification] += row.hits;
    byDay.set(date, day);
  }
  const byPlatform = new Map<string, number>();
  const byPlatformDay = new Map<string, { date: string; platform: string; visits: number }>();
  const byLanding = new Map<string, number>();
  for (const row of referrals) {
    const date = formatUtcDay(row.day);
    byPlatform.set(row.platform, (byPlatform.get(row.platform) ?? 0) + row.visits);
    const key = `${date} ${row.platform}`;
    const cell = byPlatformDay.get(key) ?? { date, platform: row.platform, visits: 0 };
    cell.visits += row.visits;
    byPlatformDay.set(key, cell);
    byLanding.set(row.landingPath, (byLanding.get(row.landingPath) ?? 0) + row.visits);
  }
  return {
    propertyId,
    from: formatUtcDay(from),
    to: formatUtcDay(to),
    countDualUseAsAi: includeDualUse,
    daily: [...byDay.values()],
    crawlers: descending([...byCrawler.values()], 'hits'),
    categories: descending([...byCategory.values()], 'hits'),
    topPages: pages.map((p) => ({
      path: p.path,
      hits: p._sum.hits ?? 0,
      firstSeenAt: p._min.firstSeenAt?.toISOString() ?? null,
      lastSeenAt: p._max.lastSeenAt?.toISOString() ?? null,
    })),
    aiReferrals: descending(
      [...byPlatform.entries()].map(([platform, visits]) => ({ platform, visits })),
      'visits',
    ),
    aiReferralsDaily: [...byPlatformDay.values()].sort(
      (a, b) => a.date.localeCompare(b.date) || a.platform.localeCompare(b.platform),
    ),
    topLandingPaths: descending(
      [...byLanding.entries()].map(([path, visits]) => ({ path, visits })),
      'visits',
    ).slice(0, TOP_SHOWN),
  };
}

/** Each AI platform id of an answer in words (chatgpt: ChatGPT), for its tables and chart legends. */
export function platformNames(ids: Iterable<string>): Record<string, string> {
  return Object.fromEntries([...new Set(ids)].map((id) => [id, aiPlatformName(id)]));
}

/** Whether any operator's published IP ranges are loaded: until then no crawler can be verified. */
export async function crawlerRangesLoaded(db: PrismaClient): Promise<boolean> {
  return (await db.crawlerIpRangeSet.count()) > 0;
}

/**
 * The recent-leads feed (every lead, matched or not: LEAD-11) and AI-attributed leads per day and
 * platform over inclusive UTC days.
 */
export async function leadActivity(db: PrismaClient, propertyId: string, from: Date, to: Date) {
  const [leads, daily] = await Promise.all([
    db.lead.findMany({
      where: { propertyId },
      orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
      take: RECENT_LEADS_SHOWN,
    }),
    db.aiLeadDailyCount.findMany({
      where: { propertyId, day: { gte: from, lte: to } },
      orderBy: [{ day: 'asc' }, { platform: 'asc' }],
    }),
  ]);
  return {
    propertyId,
    from: formatUtcDay(from),
    to: formatUtcDay(to),
    leads: leads.map((l) => ({
      id: l.id,
      receivedAt: l.receivedAt.toISOString(),
      contact: l.contact,
      email: l.email,
      platform: l.platform ?? UNCLASSIFIED_PLATFORM,
      matched: l.matched,
      landingPath: l.landingPath,
      referrer: l.referrer,
      utmSource: l.utmSource,
    })),
    aiAttributed: daily.map((r) => ({ date: formatUtcDay(r.day), platform: r.platform, leads: r.leads })),
  };
}
