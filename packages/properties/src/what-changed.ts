import { AI_PLATFORMS } from '@vt/attribution';
import type { PeriodCounts } from './overview-counts.ts';

// "What changed since last week": the largest movements between the last 7 days and the 7 before,
// in words. Pure, so every threshold below is tested with numbers. docs/console.md lists them.

/** A platform's visibility, or the share of voice, must move this many points. */
export const POINTS_THRESHOLD = 5;
/** ... over at least this many answers (or brand + competitor mentions) in each week. */
export const MIN_ANSWERS = 10;
/** Crawler hits and AI-referred visits must move by this share (percent) ... */
export const RELATIVE_THRESHOLD = 25;
/** ... with at least this many in the busier week; a source new this week needs this many. */
export const MIN_COUNT = 20;
export const MIN_NEW_COUNT = 5;
/** The average rank must move this much, over at least this many ranked answers each week. */
export const RANK_THRESHOLD = 0.5;
export const MIN_RANKED = 5;
/** A tracked competitor absent the week before must be named in this many answers. */
export const MIN_NEW_COMPETITOR_ANSWERS = 2;
/** At most this many lines, largest first. */
export const WHAT_CHANGED_SHOWN = 8;

export type ChangeKind = 'visibility' | 'share_of_voice' | 'rank' | 'crawler' | 'visits' | 'leads' | 'new_competitor';
export interface Change {
  propertyId: string;
  propertyName: string;
  kind: ChangeKind;
  text: string;
  direction: 'up' | 'down' | 'new';
  /** How large the movement is against its threshold: what the list is sorted by. */
  weight: number;
}

const PLATFORM_NAMES: Map<string, string> = new Map(AI_PLATFORMS.map((p) => [p.id, p.name]));
export const platformName = (id: string) => PLATFORM_NAMES.get(id) ?? id;

/** 12, 12.5 (one decimal, none when whole). */
const num = (value: number) => String(Math.round(value * 10) / 10);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const keysOf = (...maps: Map<string, unknown>[]) => [...new Set(maps.flatMap((m) => [...m.keys()]))].sort();

/** The movements of one property, unsorted. */
export function propertyChanges(
  property: { id: string; name: string },
  lastWeek: PeriodCounts,
  weekBefore: PeriodCounts,
): Change[] {
  const changes: Change[] = [];
  const push = (kind: ChangeKind, direction: Change['direction'], weight: number, text: string) =>
    changes.push({ propertyId: property.id, propertyName: property.name, kind, text, direction, weight });

  for (const model of keysOf(lastWeek.byModel, weekBefore.byModel)) {
    const now = lastWeek.byModel.get(model);
    const before = weekBefore.byModel.get(model);
    if (!now || !before || now.responses < MIN_ANSWERS || before.responses < MIN_ANSWERS) continue;
    const pctNow = (now.mentions / now.responses) * 100;
    const pctBefore = (before.mentions / before.responses) * 100;
    const delta = pctNow - pctBefore;
    if (Math.abs(delta) < POINTS_THRESHOLD) continue;
    push(
      'visibility',
      delta > 0 ? 'up' : 'down',
      Math.abs(delta) / POINTS_THRESHOLD,
      `Visibility on ${platformName(model)} ${delta > 0 ? 'rose' : 'fell'} ${num(Math.abs(delta))} points (from ${num(pctBefore)}% to ${num(pctNow)}% of answers)`,
    );
  }

  const brandNow = sumOf(lastWeek.byModel, (m) => m.mentions);
  const brandBefore = sumOf(weekBefore.byModel, (m) => m.mentions);
  const voicesNow = brandNow + sumOf(lastWeek.competitors, (n) => n);
  const voicesBefore = brandBefore + sumOf(weekBefore.competitors, (n) => n);
  if (
    voicesNow >= MIN_ANSWERS &&
    voicesBefore >= MIN_ANSWERS &&
    (lastWeek.competitors.size || weekBefore.competitors.size)
  ) {
    const delta = (brandNow / voicesNow) * 100 - (brandBefore / voicesBefore) * 100;
    if (Math.abs(delta) >= POINTS_THRESHOLD) {
      push(
        'share_of_voice',
        delta > 0 ? 'up' : 'down',
        Math.abs(delta) / POINTS_THRESHOLD,
        `Share of voice ${delta > 0 ? 'rose' : 'fell'} ${num(Math.abs(delta))} points (to ${num((brandNow / voicesNow) * 100)}%)`,
      );
    }
  }

  if (lastWeek.ranked >= MIN_RANKED && weekBefore.ranked >= MIN_RANKED) {
    const now = lastWeek.rankSum / lastWeek.ranked;
    const before = weekBefore.rankSum / weekBefore.ranked;
    const delta = now - before;
    if (Math.abs(delta) >= RANK_THRESHOLD) {
      // A lower rank is better: named before more of the competitors.
      push(
        'rank',
        delta < 0 ? 'up' : 'down',
        Math.abs(delta) / RANK_THRESHOLD,
        `Average rank among the brands named ${delta < 0 ? 'improved' : 'worsened'} from ${num(before)} to ${num(now)}`,
      );
    }
  }

  countChanges(lastWeek.crawlers, weekBefore.crawlers, (name, how) => `${name} visits ${how}`, 'crawler', push);
  countChanges(
    lastWeek.visits,
    weekBefore.visits,
    (platform, how) => `Visits referred by ${platformName(platform)} ${how}`,
    'visits',
    push,
  );

  for (const platform of keysOf(lastWeek.leads)) {
    const now = lastWeek.leads.get(platform) ?? 0;
    const before = weekBefore.leads.get(platform) ?? 0;
    if (now === 0) continue;
    push(
      'leads',
      before === 0 ? 'new' : now >= before ? 'up' : 'down',
      2 + now,
      `${plural(now, 'AI lead', 'AI leads')} from ${platformName(platform)} (${before === 0 ? 'none' : before} the week before)`,
    );
  }

  for (const name of keysOf(lastWeek.competitors)) {
    const now = lastWeek.competitors.get(name) ?? 0;
    if ((weekBefore.competitors.get(name) ?? 0) > 0 || now < MIN_NEW_COMPETITOR_ANSWERS) continue;
    push(
      'new_competitor',
      'new',
      1 + now / MIN_NEW_COMPETITOR_ANSWERS / 2,
      `A new competitor, ${name}, was named in ${plural(now, 'answer', 'answers')} (none the week before)`,
    );
  }
  return changes;
}

function sumOf<V>(map: Map<string, V>, value: (v: V) => number): number {
  let sum = 0;
  for (const v of map.values()) sum += value(v);
  return sum;
}

/** Crawler hits or referred visits per source: a large relative move, or a source new this week. */
function countChanges(
  now: Map<string, number>,
  before: Map<string, number>,
  words: (key: string, how: string) => string,
  kind: ChangeKind,
  push: (kind: ChangeKind, direction: Change['direction'], weight: number, text: string) => void,
) {
  for (const key of keysOf(now, before)) {
    const current = now.get(key) ?? 0;
    const previous = before.get(key) ?? 0;
    if (previous === 0) {
      if (current >= MIN_NEW_COUNT)
        push(kind, 'new', current / MIN_NEW_COUNT, words(key, `started: ${current}, none the week before`));
      continue;
    }
    if (Math.max(current, previous) < MIN_COUNT) continue;
    const percent = ((current - previous) / previous) * 100;
    if (Math.abs(percent) < RELATIVE_THRESHOLD) continue;
    push(
      kind,
      percent > 0 ? 'up' : 'down',
      Math.abs(percent) / RELATIVE_THRESHOLD,
      words(key, `${percent > 0 ? 'up' : 'down'} ${num(Math.abs(percent))}% (from ${previous} to ${current})`),
    );
  }
}

/** Every property's movements, largest first, at most WHAT_CHANGED_SHOWN. */
export function whatChanged(changes: Change[]): Change[] {
  return [...changes]
    .sort((a, b) => b.weight - a.weight || a.propertyName.localeCompare(b.propertyName) || a.text.localeCompare(b.text))
    .slice(0, WHAT_CHANGED_SHOWN);
}
