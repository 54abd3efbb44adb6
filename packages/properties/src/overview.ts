import { addUtcDays, formatUtcDay, type PrismaClient } from '@vt/db';
import { onboardingChecklists } from './onboarding.ts';
import { addCounts, periodCounts } from './overview-counts.ts';
import { overviewFigures } from './overview-figures.ts';
import { propertyChanges, whatChanged } from './what-changed.ts';

const DAY_MS = 86_400_000;
/** "What changed" compares the 7 days ending the range's last day with the 7 before. */
const WEEK_DAYS = 7;

/**
 * The home overview of a team over inclusive UTC days [from, to]: each property's figures beside
 * the previous period of the same length (the days just before `from`), the team's total, each
 * property's setup checklist, and what changed in the last week. Every count is read in one pass
 * over the four periods (range, previous range, last week, week before).
 */
export async function teamOverview(
  db: PrismaClient,
  teamId: string,
  range: { from: Date; to: Date },
  now = new Date(),
) {
  const properties = await db.property.findMany({ where: { teamId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS) + 1;
  const previous = { from: addUtcDays(range.from, -days), to: addUtcDays(range.from, -1) };
  const lastWeek = { from: addUtcDays(range.to, 1 - WEEK_DAYS), to: range.to };
  const weekBefore = { from: addUtcDays(range.to, 1 - 2 * WEEK_DAYS), to: addUtcDays(range.to, -WEEK_DAYS) };
  const asDays = (r: { from: Date; to: Date }) => ({ from: formatUtcDay(r.from), to: formatUtcDay(r.to) });
  const [counts, checklists] = await Promise.all([
    periodCounts(db, properties, [range, previous, lastWeek, weekBefore].map(asDays)),
    onboardingChecklists(db, properties, now),
  ]);
  const all = properties.map((p) => counts.get(p.id) ?? []);
  const period = (i: number) => addCounts(all.map((c) => c[i]).filter((c) => c !== undefined));
  return {
    ...asDays(range),
    previousFrom: formatUtcDay(previous.from),
    previousTo: formatUtcDay(previous.to),
    total: overviewFigures(period(0), period(1), { team: true }),
    properties: properties.map((p, i) => {
      const [current, before] = all[i] ?? [];
      const setup = checklists.get(p.id) ?? { steps: [], complete: false };
      return {
        id: p.id,
        name: p.name,
        domain: p.domain,
        plan: p.plan,
        figures: overviewFigures(current ?? addCounts([]), before ?? addCounts([]), {
          tracksCompetitors: setup.steps.some((s) => s.step === 'competitors' && s.done),
        }),
        setup,
      };
    }),
    whatChanged: {
      ...asDays(lastWeek),
      changes: whatChanged(
        properties.flatMap((p, i) => {
          const [, , week, before] = all[i] ?? [];
          return week && before ? propertyChanges(p, week, before) : [];
        }),
      ).map(({ weight: _weight, ...change }) => change),
    },
  };
}
