import type { AlertRuleKind } from '@vt/contracts/console';
import { addUtcDays, formatUtcDay, Prisma, type PrismaClient, type Property, utcDay } from '@vt/db';
import {
  answerTotals,
  crawlConnection,
  MIN_ANSWERS,
  overviewFigures,
  periodCounts,
  webhookConnection,
} from '@vt/properties';

// What each alert rule looks at, read the way the console shows it: the crawl and webhook
// statuses are the setup dialogs' own (@vt/properties), the drops compare the overview's figures
// of the last 7 whole UTC days with the 7 before (its periodCounts and overviewFigures), so an
// alert never says something the console contradicts.

/**
 * Crawler hits the week before must reach this before a drop alerts. Under it, week-to-week
 * counts are noise: 2 → 1 is -50 %. At 50, a 50 % drop (50 → 25) is about 3.5 standard deviations
 * of a Poisson count, a real change; 20 (the overview's "what changed" floor) would alert on
 * swings a quiet site has every other week.
 */
export const MIN_CRAWLER_HITS = 50;
/** The window a competitor is new in, and how far back it must not have been named. */
export const NEW_COMPETITOR_DAYS = 2;
export const NEW_COMPETITOR_LOOKBACK_DAYS = 30;

export type ObservedFigures = Record<string, string | number | boolean | null>;

/**
 * What a state rule's condition looked at: the figures a message quotes, and whether it holds at a
 * threshold (read from the rule as the evaluation locked it, not as it was before the lock).
 */
export interface Observation {
  holds: (threshold: number | null) => boolean;
  observed: ObservedFigures;
}

export interface NewCompetitor {
  competitorId: string;
  name: string;
  /** The first day of the window it was named on (yyyy-MM-dd): with the id, the event's key. */
  firstDay: string;
  answers: number;
}

/** The last 7 whole UTC days before `now`'s day, and the 7 before them. */
export function alertWeeks(now: Date) {
  const today = utcDay(now);
  const day = (n: number) => formatUtcDay(addUtcDays(today, n));
  return { lastWeek: { from: day(-7), to: day(-1) }, weekBefore: { from: day(-14), to: day(-8) } };
}

/** Every state rule's observation for one property (only the kinds asked for are read). */
export async function observeProperty(
  db: PrismaClient,
  property: Property,
  kinds: ReadonlySet<AlertRuleKind>,
  now: Date,
): Promise<Map<AlertRuleKind, Observation>> {
  const result = new Map<AlertRuleKind, Observation>();
  if (kinds.has('crawl_nothing_arriving') || kinds.has('crawl_rejecting')) {
    const crawl = await crawlConnection(db, property, now);
    const observed = { status: crawl.status, lastAttemptAt: crawl.lastAttemptAt, lastAcceptedAt: crawl.lastAcceptedAt };
    result.set('crawl_nothing_arriving', { holds: () => crawl.status === 'nothing_arriving', observed });
    result.set('crawl_rejecting', { holds: () => crawl.status === 'rejecting', observed });
  }
  if (kinds.has('webhook_rejecting')) {
    const webhook = await webhookConnection(db, property, now);
    result.set('webhook_rejecting', {
      holds: () => webhook.status === 'rejecting',
      observed: { status: webhook.status, lastAttemptAt: webhook.lastAttemptAt ?? null },
    });
  }
  const drops = (['crawler_hits_drop', 'visibility_drop', 'share_of_voice_drop'] as const).filter((k) => kinds.has(k));
  if (drops.length > 0) {
    const { lastWeek, weekBefore } = alertWeeks(now);
    const counts = (await periodCounts(db, [property], [lastWeek, weekBefore])).get(property.id);
    const [week, before] = counts ?? [];
    if (!week || !before) throw new Error('periodCounts answered no counts for the property');
    const tracksCompetitors = (await db.competitor.count({ where: { propertyId: property.id } })) > 0;
    const figures = overviewFigures(week, before, { tracksCompetitors });
    const window = { from: lastWeek.from, to: lastWeek.to, previousFrom: weekBefore.from, previousTo: weekBefore.to };
    // A thresholded rule without a threshold never fires (the console always stores one).
    const drop = (by: number | null, threshold: number | null) => by !== null && threshold !== null && -by >= threshold;

    const hits = figures.crawlerHits;
    result.set('crawler_hits_drop', {
      holds: (threshold) => hits.previous >= MIN_CRAWLER_HITS && drop(hits.changePercent, threshold),
      observed: { ...window, current: hits.current, previous: hits.previous, changePercent: hits.changePercent },
    });

    const [answersNow, answersBefore] = [answerTotals(week).responses, answerTotals(before).responses];
    const visibility = figures.visibility;
    result.set('visibility_drop', {
      holds: (threshold) =>
        answersNow >= MIN_ANSWERS && answersBefore >= MIN_ANSWERS && drop(visibility.changePoints, threshold),
      observed: {
        ...window,
        current: visibility.current,
        previous: visibility.previous,
        changePoints: visibility.changePoints,
        answers: answersNow,
        previousAnswers: answersBefore,
      },
    });

    const voices = (counts: typeof week) =>
      answerTotals(counts).mentions + [...counts.competitors.values()].reduce((a, b) => a + b, 0);
    const share = figures.shareOfVoice;
    result.set('share_of_voice_drop', {
      holds: (threshold) =>
        share !== null &&
        voices(week) >= MIN_ANSWERS &&
        voices(before) >= MIN_ANSWERS &&
        drop(share.changePoints, threshold),
      observed: {
        ...window,
        current: share?.current ?? null,
        previous: share?.previous ?? null,
        changePoints: share?.changePoints ?? null,
        mentions: voices(week),
        previousMentions: voices(before),
      },
    });
  }
  return result;
}

/**
 * Tracked competitors named in answers of the last NEW_COMPETITOR_DAYS UTC days (today and
 * yesterday: answers are collected once a day, at any hour) that no answer named in the 30 days
 * before the first of those days. An event, keyed by the competitor and that first day: named
 * again tomorrow, it is the same event; named again after 30 quiet days, a new one.
 */
export async function newCompetitors(db: PrismaClient, propertyId: string, now: Date): Promise<NewCompetitor[]> {
  const today = utcDay(now);
  const from = formatUtcDay(addUtcDays(today, 1 - NEW_COMPETITOR_DAYS));
  const rows = await db.$queryRaw<{ competitor_id: string; name: string; first_day: Date; answers: number }[]>(
    Prisma.sql`
    WITH recent AS (
      SELECT competitor_id, min(day) AS first_day, count(*)::int AS answers
      FROM response_competitor_mentions
      WHERE property_id = ${propertyId}::uuid AND day BETWEEN ${from}::date AND ${formatUtcDay(today)}::date
      GROUP BY competitor_id
    )
    SELECT r.competitor_id::text, c.name, r.first_day, r.answers
    FROM recent r JOIN competitors c ON c.id = r.competitor_id
    WHERE NOT EXISTS (
      SELECT 1 FROM response_competitor_mentions m
      WHERE m.property_id = ${propertyId}::uuid AND m.competitor_id = r.competitor_id
        AND m.day >= r.first_day - ${NEW_COMPETITOR_LOOKBACK_DAYS}::int AND m.day < r.first_day
    )
    ORDER BY c.name`,
  );
  return rows.map((r) => ({
    competitorId: r.competitor_id,
    name: r.name,
    firstDay: formatUtcDay(r.first_day),
    answers: r.answers,
  }));
}
