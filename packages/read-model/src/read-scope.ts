import {
  type CursorValue,
  type DateRangeQuery,
  DEFAULT_PAGE_SIZE,
  DEFAULT_RANGE_DAYS,
  type PagingQuery,
} from '@vt/contracts';
import { addUtcDays, formatUtcDay, parseUtcDay, utcDay } from '@vt/db';

/** What an authenticated key may read: the ids of its team's properties that are in its scope and on an active paid plan. */
export interface KeyPrincipal {
  keyId: string;
  teamId: string;
  propertyIds: readonly string[];
}

/**
 * The properties a request reads: the key's whole scope, or the one property asked for when it
 * is in scope. A property outside the scope narrows to nothing, so the caller answers an empty
 * list rather than telling whether that id exists elsewhere.
 */
export function propertiesToRead(principal: KeyPrincipal, propertyId: string | undefined): string[] {
  if (propertyId === undefined) return [...principal.propertyIds];
  return principal.propertyIds.includes(propertyId) ? [propertyId] : [];
}

export interface Page {
  limit: number;
  offset: number;
  /** A cursor's sort key: the page starts just after that row (`starting_after`). */
  after?: readonly CursorValue[];
  /** A cursor's sort key: the page ends just before that row (`ending_before`). */
  before?: readonly CursorValue[];
}

export function pageOf(query: PagingQuery): Page {
  return {
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    offset: query.offset ?? 0,
    ...(query.starting_after ? { after: query.starting_after } : {}),
    ...(query.ending_before ? { before: query.ending_before } : {}),
  };
}

export interface DayRange {
  from: string;
  to: string;
}

/**
 * The inclusive UTC-day range of a time-series request. Neither bound: the 30 days ending today.
 * `to` alone: the 30 days ending on it. `from` alone: from it through today. Returns the
 * parameter to blame when `from` falls after `to`.
 */
export function resolveDayRange(query: DateRangeQuery, now: Date): DayRange | { invalid: 'from'; message: string } {
  const today = utcDay(now);
  const to = query.to ?? formatUtcDay(today);
  const from = query.from ?? formatUtcDay(addUtcDays(parseUtcDay(to) ?? today, -(DEFAULT_RANGE_DAYS - 1)));
  if (from > to) {
    const why = query.to === undefined ? `today (${to}, UTC), the default 'to'` : `'to' (${to})`;
    return { invalid: 'from', message: `Invalid query parameter 'from': ${from} is after ${why}.` };
  }
  return { from, to };
}
