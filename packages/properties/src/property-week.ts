import { addUtcDays, formatUtcDay, type PrismaClient, type Property } from '@vt/db';
import { addCounts, periodCounts } from './overview-counts.ts';
import { overviewFigures } from './overview-figures.ts';
import { propertyChanges, whatChanged } from './what-changed.ts';

/**
 * One property's week (inclusive UTC days [from, from + 6]) beside the 7 days before, as the home
 * overview reads it: the same counts, figures and "what changed" functions over the same periods,
 * so the weekly report and GET /api/overview over that week agree to the digit. Only this
 * property's movements, and at most as many as the overview shows.
 */
export async function propertyWeekOverview(db: PrismaClient, property: Property, weekFrom: Date) {
  const week = { from: formatUtcDay(weekFrom), to: formatUtcDay(addUtcDays(weekFrom, 6)) };
  const before = { from: formatUtcDay(addUtcDays(weekFrom, -7)), to: formatUtcDay(addUtcDays(weekFrom, -1)) };
  const [counts, competitors] = await Promise.all([
    periodCounts(db, [property], [week, before]),
    db.competitor.count({ where: { propertyId: property.id } }),
  ]);
  const [current, previous] = counts.get(property.id) ?? [];
  const thisWeek = current ?? addCounts([]);
  const weekBefore = previous ?? addCounts([]);
  return {
    ...week,
    previousFrom: before.from,
    previousTo: before.to,
    // The overview's rule: its checklist's competitors step is done once one competitor is tracked.
    figures: overviewFigures(thisWeek, weekBefore, { tracksCompetitors: competitors > 0 }),
    whatChanged: whatChanged(propertyChanges(property, thisWeek, weekBefore)).map(
      ({ weight: _weight, ...change }) => change,
    ),
  };
}

export type PropertyWeekOverview = Awaited<ReturnType<typeof propertyWeekOverview>>;
