import { DEFAULT_RANGE_DAYS } from '@vt/contracts';
import { ACTIVITY_MAX_DAYS, OperationError } from '@vt/contracts/console';
import { addUtcDays, formatUtcDay, parseUtcDay, utcDay } from '@vt/db';

const DAY_MS = 86_400_000;

/**
 * Inclusive UTC days (the query schema has made sure each is a real day): `to` defaults to today,
 * `from` to 29 days before `to`.
 */
export function dayRange(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const to = query.to ? (parseUtcDay(query.to) as Date) : utcDay(now);
  const from = query.from ? (parseUtcDay(query.from) as Date) : addUtcDays(to, 1 - DEFAULT_RANGE_DAYS);
  if (from > to)
    throw new OperationError('INVALID_PARAM', 'from is after to.', [{ path: 'from', message: 'must not be after to' }]);
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > ACTIVITY_MAX_DAYS) {
    throw new OperationError('INVALID_PARAM', `A range spans at most ${ACTIVITY_MAX_DAYS} days.`, [
      { path: 'from', message: `at most ${ACTIVITY_MAX_DAYS} days before to` },
    ]);
  }
  return { from, to };
}

/** The range as /v1's read model takes it. */
export const asDays = (range: { from: Date; to: Date }) => ({
  from: formatUtcDay(range.from),
  to: formatUtcDay(range.to),
});

/**
 * The whole of a bounded list in one answer: a range holds at most 366 days × a handful of
 * platforms of visibility points, and a property's competitors are capped when added.
 */
export const EVERY_ROW = { limit: 100_000, offset: 0 };
