import type { PeriodCounts } from './overview-counts.ts';

// The overview's figures from two periods' counts: pure, so each rule is tested on numbers.

export type Trend = 'up' | 'down' | 'flat' | 'new' | 'none';

const round = (value: number, places: number) => {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
};
const total = (values: Iterable<number>) => {
  let sum = 0;
  for (const v of values) sum += v;
  return sum;
};

function trendOf(current: number | null, previous: number | null, change: number | null): Trend {
  if (current === null) return 'none';
  if (previous === null) return 'new';
  if (change === null || change === 0) return 'flat';
  return change > 0 ? 'up' : 'down';
}

/** A percentage (one decimal) of each period, and the change in points. */
export function percentFigure(current: [number, number], previous: [number, number]) {
  const pct = ([part, whole]: [number, number]) => (whole > 0 ? (part / whole) * 100 : null);
  const now = pct(current);
  const before = pct(previous);
  const changePoints = now !== null && before !== null ? round(now - before, 1) : null;
  return {
    current: now === null ? null : round(now, 1),
    previous: before === null ? null : round(before, 1),
    changePoints,
    trend: trendOf(now, before, changePoints),
  };
}

/** An average (two decimals) of each period, and its absolute change. */
export function averageFigure(current: [number, number], previous: [number, number]) {
  const mean = ([sum, count]: [number, number]) => (count > 0 ? sum / count : null);
  const now = mean(current);
  const before = mean(previous);
  const change = now !== null && before !== null ? round(now - before, 2) : null;
  return {
    current: now === null ? null : round(now, 2),
    previous: before === null ? null : round(before, 2),
    change,
    trend: trendOf(now, before, change),
  };
}

/** A count of each period and the relative change in percent (none when there was none before). */
export function countFigure(current: number, previous: number) {
  const changePercent = previous > 0 ? round(((current - previous) / previous) * 100, 1) : null;
  const trend: Trend =
    current === 0 && previous === 0
      ? 'none'
      : previous === 0
        ? 'new'
        : current === previous
          ? 'flat'
          : current > previous
            ? 'up'
            : 'down';
  return { current, previous, changePercent, trend };
}

/** Answers, mentions and sentiments of a period over every platform. */
export function answerTotals(counts: PeriodCounts) {
  const models = [...counts.byModel.values()];
  return {
    responses: total(models.map((m) => m.responses)),
    mentions: total(models.map((m) => m.mentions)),
    sentimentCount: total(models.map((m) => m.sentimentCount)),
    sentimentSum: total(models.map((m) => m.sentimentSum)),
  };
}

/**
 * The figures of one property (or, with `team`, the team's total, where share of voice and rank
 * are left out: they are read against each property's own competitors and do not add up). A
 * property that tracks no competitor has neither: it would read 100% and first place, always.
 */
export function overviewFigures(
  current: PeriodCounts,
  previous: PeriodCounts,
  options: { team?: boolean; tracksCompetitors?: boolean } = {},
) {
  const compared = !options.team && options.tracksCompetitors !== false;
  const now = answerTotals(current);
  const before = answerTotals(previous);
  const voices = (counts: PeriodCounts, brand: number): [number, number] => [
    brand,
    brand + total(counts.competitors.values()),
  ];
  return {
    answers: now.responses,
    visibility: percentFigure([now.mentions, now.responses], [before.mentions, before.responses]),
    shareOfVoice: compared ? percentFigure(voices(current, now.mentions), voices(previous, before.mentions)) : null,
    averageRank: compared
      ? averageFigure([current.rankSum, current.ranked], [previous.rankSum, previous.ranked])
      : null,
    averageSentiment: averageFigure(
      [now.sentimentSum, now.sentimentCount],
      [before.sentimentSum, before.sentimentCount],
    ),
    crawlerHits: countFigure(total(current.crawlers.values()), total(previous.crawlers.values())),
    aiVisits: countFigure(total(current.visits.values()), total(previous.visits.values())),
    aiLeads: countFigure(total(current.leads.values()), total(previous.leads.values())),
  };
}
