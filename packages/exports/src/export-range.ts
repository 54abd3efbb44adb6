import { formatUtcDay } from '@vt/db';

/** The longest range one export covers: a year, leap day included, as every console view. */
export const EXPORT_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

/** Why a range cannot be exported, or null: `from` after `to`, or more than EXPORT_MAX_DAYS days. */
export function exportRangeProblem(from: Date, to: Date): string | null {
  if (from > to) return `from (${formatUtcDay(from)}) is after to (${formatUtcDay(to)})`;
  const days = (to.getTime() - from.getTime()) / DAY_MS + 1;
  if (days > EXPORT_MAX_DAYS) return `a range spans at most ${EXPORT_MAX_DAYS} days (this one ${days})`;
  return null;
}
