import { useSearchParams } from 'react-router';

// The day range of the data views lives in the URL (`?from=2026-05-01&to=2026-05-30`), so a view
// can be bookmarked and reloaded. Days are UTC, as every count is kept.

const DAY_MS = 86_400_000;
const isDay = (text: string | null): text is string => !!text && /^\d{4}-\d{2}-\d{2}$/.test(text);

export const utcToday = () => new Date().toISOString().slice(0, 10);
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Every UTC day from `from` through `to`, oldest first: the x-axis of a chart, gaps included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to && days.length < 400; d = addDays(d, 1)) days.push(d);
  return days;
}

/**
 * The range in the URL, if any, and a way to change it. A view without one shows the team's
 * default number of days ending today (`resolve`), known once the team is loaded.
 */
export function useDayRange() {
  const [params, setParams] = useSearchParams();
  const from = params.get('from');
  const to = params.get('to');
  const explicit = isDay(from) && isDay(to) && from <= to ? { from, to } : null;
  const resolve = (defaultDays: number) => explicit ?? { from: addDays(utcToday(), 1 - defaultDays), to: utcToday() };
  const set = (next: { from: string; to: string }) =>
    setParams(withParams({ from: next.from, to: next.to, offset: '' }));
  return { key: explicit ? `${explicit.from}/${explicit.to}` : 'default', resolve, set };
}

/**
 * The URL's current query with `changes` applied (an empty value removes the parameter). Read
 * from the location, not from the last render: two changes in a row must both land.
 */
export function withParams(changes: Record<string, string>): URLSearchParams {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value) params.set(name, value);
    else params.delete(name);
  }
  return params;
}

/** Rows of {day, key, value} pivoted to one object per day with a field per key, zeros filled. */
export function pivotByDay<Row>(
  days: string[],
  rows: Row[],
  dayOf: (row: Row) => string,
  keyOf: (row: Row) => string,
  countOf: (row: Row) => number,
): { keys: string[]; data: Record<string, number | string>[] } {
  const keys = [...new Set(rows.map(keyOf))].sort();
  const byDay = new Map(days.map((d) => [d, Object.fromEntries([['date', d], ...keys.map((k) => [k, 0])])]));
  for (const row of rows) {
    const slot = byDay.get(dayOf(row));
    if (slot) slot[keyOf(row)] = ((slot[keyOf(row)] as number) ?? 0) + countOf(row);
  }
  return { keys, data: [...byDay.values()] };
}
