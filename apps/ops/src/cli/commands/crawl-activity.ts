import { formatUtcDay } from '@vt/db';
import { crawlConnectionStatus, isAcceptedCrawlAttempt, recentDeliveries } from '@vt/delivery-log';
import type { OpsContext } from '../context.ts';
import { propertyAndDays, propertyFromOptions } from '../inputs.ts';

// What the dashboard's crawl panel will show, until the dashboard exists: the connection status,
// the delivery log, and the activity (daily crawler hits, verified or not, top pages, AI referrals).

export async function crawlStatus(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  const attempts = await recentDeliveries(ctx.db, property.id, 'crawl');
  const accepted = attempts.find(isAcceptedCrawlAttempt);
  return {
    propertyId: property.id,
    status: crawlConnectionStatus({
      ingestionEnabled: property.crawlIngestionEnabled,
      statusSince: property.crawlStatusSince,
      attempts,
      now: new Date(),
    }),
    ingestionEnabled: property.crawlIngestionEnabled,
    lastAttemptAt: attempts[0]?.createdAt.toISOString() ?? null,
    lastAcceptedAt: accepted?.createdAt.toISOString() ?? null,
    verificationRestartedAt: property.crawlStatusSince?.toISOString() ?? null,
  };
}

export async function crawlLog(ctx: OpsContext, options: unknown) {
  const property = await propertyFromOptions(ctx, options);
  const attempts = await recentDeliveries(ctx.db, property.id, 'crawl');
  return {
    propertyId: property.id,
    entries: attempts.map((a) => ({
      at: a.createdAt.toISOString(),
      statusCode: a.statusCode,
      outcome: a.outcome,
      linesReceived: a.linesReceived,
      linesMatched: a.linesKept,
      reason: a.reason,
      fix: a.fix,
      hostNote: a.hostNote,
    })),
  };
}

export async function crawlActivity(ctx: OpsContext, options: unknown) {
  const { property, from, to } = await propertyAndDays(ctx, options);
  const where = { propertyId: property.id, day: { gte: from, lte: to } };
  const [daily, pages, referrals] = await Promise.all([
    ctx.db.crawlerDailyCount.findMany({ where, orderBy: { day: 'asc' } }),
    ctx.db.crawledPage.groupBy({
      by: ['path'],
      where: { propertyId: property.id },
      _sum: { hits: true },
      _min: { firstSeenAt: true },
      _max: { lastSeenAt: true },
      orderBy: { _sum: { hits: 'desc' } },
      take: 20,
    }),
    ctx.db.aiReferralDailyCount.findMany({ where, orderBy: { day: 'asc' } }),
  ]);

  const byDay = new Map<
    string,
    { date: string; hits: number; verified: number; unverified: number; unverifiable: number }
  >();
  const byCrawler = new Map<string, { crawler: string; operator: string; hits: number; verified: number }>();
  for (const row of daily) {
    const date = formatUtcDay(row.day);
    const day = byDay.get(date) ?? { date, hits: 0, verified: 0, unverified: 0, unverifiable: 0 };
    day.hits += row.hits;
    day[row.verification] += row.hits;
    byDay.set(date, day);
    const crawler = byCrawler.get(row.crawler) ?? {
      crawler: row.crawler,
      operator: row.operator,
      hits: 0,
      verified: 0,
    };
    crawler.hits += row.hits;
    if (row.verification === 'verified') crawler.verified += row.hits;
    byCrawler.set(row.crawler, crawler);
  }
  const byPlatform = new Map<string, number>();
  const byLanding = new Map<string, number>();
  for (const row of referrals) {
    byPlatform.set(row.platform, (byPlatform.get(row.platform) ?? 0) + row.visits);
    byLanding.set(row.landingPath, (byLanding.get(row.landingPath) ?? 0) + row.visits);
  }
  const descending = <T extends { [k: string]: unknown }>(rows: T[], key: keyof T) =>
    rows.sort((a, b) => Number(b[key]) - Number(a[key]));
  return {
    propertyId: property.id,
    from: formatUtcDay(from),
    to: formatUtcDay(to),
    daily: [...byDay.values()],
    crawlers: descending([...byCrawler.values()], 'hits'),
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
    topLandingPaths: descending(
      [...byLanding.entries()].map(([path, visits]) => ({ path, visits })),
      'visits',
    ).slice(0, 20),
  };
}
