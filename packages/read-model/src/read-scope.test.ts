import { describe, expect, it } from 'vitest';
import { type KeyPrincipal, pageOf, propertiesToRead, resolveDayRange } from './read-scope.ts';

// The pure scope and range rules behind every /v1 endpoint (READ-9, READ-19, READ-20), checked
// without HTTP. Expected days are computed with plain UTC arithmetic, independent of @vt/db.

const RANGE_DAYS = 30;

/** yyyy-MM-dd of the UTC day `offset` days after the UTC day of `instant` (negative: before). */
function utcDayPlus(instant: Date, offset: number): string {
  const utc = Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate() + offset);
  return new Date(utc).toISOString().slice(0, 10);
}
const dayPlus = (day: string, offset: number) => utcDayPlus(new Date(`${day}T00:00:00.000Z`), offset);

/** Inclusive count of UTC days from `from` to `to`. */
const spanDays = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;

const NOW = new Date('2026-03-15T12:00:00.000Z');
const TODAY = '2026-03-15';

describe('resolveDayRange', () => {
  it('[READ-20] neither bound: the 30 UTC days ending today', () => {
    const range = resolveDayRange({}, NOW);
    expect(range).toEqual({ from: utcDayPlus(NOW, -(RANGE_DAYS - 1)), to: TODAY });
    if ('invalid' in range) throw new Error('unexpected');
    expect(spanDays(range.from, range.to)).toBe(RANGE_DAYS);
  });

  it('[READ-20] to alone: the 30 days ending on to (from is 29 days before to)', () => {
    for (const to of ['2026-03-01', '2028-03-01', '2026-01-15', '2025-12-31', TODAY, '2026-04-30']) {
      const range = resolveDayRange({ to }, NOW);
      expect(range, to).toEqual({ from: dayPlus(to, -(RANGE_DAYS - 1)), to });
      if ('invalid' in range) throw new Error('unexpected');
      expect(spanDays(range.from, range.to), to).toBe(RANGE_DAYS);
    }
    // Calendar edges: across a non-leap and a leap February, and across a year end.
    expect(resolveDayRange({ to: '2026-03-01' }, NOW)).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(resolveDayRange({ to: '2028-03-01' }, NOW)).toEqual({ from: '2028-02-01', to: '2028-03-01' });
    expect(resolveDayRange({ to: '2026-01-15' }, NOW)).toEqual({ from: '2025-12-17', to: '2026-01-15' });
  });

  it('[READ-20] from alone: from through today (documented choice), not capped at 30 days', () => {
    expect(resolveDayRange({ from: '2026-03-05' }, NOW)).toEqual({ from: '2026-03-05', to: TODAY });
    expect(resolveDayRange({ from: '2025-01-01' }, NOW)).toEqual({ from: '2025-01-01', to: TODAY });
    expect(resolveDayRange({ from: TODAY }, NOW)).toEqual({ from: TODAY, to: TODAY });
  });

  it('[READ-20] both bounds are kept as given (inclusive days); from == to is one day', () => {
    expect(resolveDayRange({ from: '2026-02-01', to: '2026-02-10' }, NOW)).toEqual({
      from: '2026-02-01',
      to: '2026-02-10',
    });
    expect(resolveDayRange({ from: '2026-02-07', to: '2026-02-07' }, NOW)).toEqual({
      from: '2026-02-07',
      to: '2026-02-07',
    });
    // Bounds are independent of the clock: a range entirely in the future or far past is kept.
    expect(resolveDayRange({ from: '2030-01-01', to: '2030-01-31' }, NOW)).toEqual({
      from: '2030-01-01',
      to: '2030-01-31',
    });
  });

  it('[READ-20] from after to, or from alone after today, is reported against from', () => {
    const explicit = resolveDayRange({ from: '2026-02-11', to: '2026-02-10' }, NOW);
    expect(explicit).toMatchObject({ invalid: 'from' });
    expect((explicit as { message: string }).message).toContain('2026-02-11');
    const future = resolveDayRange({ from: utcDayPlus(NOW, 1) }, NOW);
    expect(future).toMatchObject({ invalid: 'from' });
  });

  it('[READ-20] the default range shifts by exactly one day at midnight UTC', () => {
    const last = new Date('2026-03-14T23:59:59.999Z');
    const first = new Date('2026-03-15T00:00:00.000Z');
    const before = resolveDayRange({}, last);
    const after = resolveDayRange({}, first);
    expect(before).toEqual({ from: utcDayPlus(last, -(RANGE_DAYS - 1)), to: '2026-03-14' });
    expect(after).toEqual({ from: utcDayPlus(first, -(RANGE_DAYS - 1)), to: '2026-03-15' });
    if ('invalid' in before || 'invalid' in after) throw new Error('unexpected');
    expect(after.from).toBe(dayPlus(before.from, 1));
    expect(after.to).toBe(dayPlus(before.to, 1));
    // Every instant of one UTC day gives the same range.
    expect(resolveDayRange({}, new Date('2026-03-15T00:00:00.000Z'))).toEqual(
      resolveDayRange({}, new Date('2026-03-15T23:59:59.999Z')),
    );
  });

  it('[READ-20] today is the UTC day, whatever the instant\u2019s offset was written in', () => {
    // 2026-03-15T01:30+05:00 is 2026-03-14T20:30Z: still the 14th in UTC.
    expect(resolveDayRange({}, new Date('2026-03-15T01:30:00+05:00'))).toMatchObject({ to: '2026-03-14' });
    // 2026-03-14T20:30-05:00 is 2026-03-15T01:30Z: already the 15th in UTC.
    expect(resolveDayRange({}, new Date('2026-03-14T20:30:00-05:00'))).toMatchObject({ to: '2026-03-15' });
  });
});

describe('propertiesToRead', () => {
  const principal: KeyPrincipal = {
    keyId: 'k',
    teamId: 't',
    propertyIds: ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'],
  };

  it('[READ-9] no propertyId: the whole scope', () => {
    expect(propertiesToRead(principal, undefined)).toEqual([...principal.propertyIds]);
  });

  it('[READ-9] a propertyId in scope narrows to that one property', () => {
    expect(propertiesToRead(principal, principal.propertyIds[1])).toEqual([principal.propertyIds[1]]);
  });

  it('[READ-9] a propertyId outside the scope narrows to nothing (an empty list, not an error)', () => {
    expect(propertiesToRead(principal, '33333333-3333-4333-8333-333333333333')).toEqual([]);
    expect(propertiesToRead({ ...principal, propertyIds: [] }, undefined)).toEqual([]);
    expect(propertiesToRead({ ...principal, propertyIds: [] }, principal.propertyIds[0])).toEqual([]);
  });

  it('[READ-9] the result is a copy: changing it never widens the key\u2019s scope', () => {
    const read = propertiesToRead(principal, undefined);
    read.push('33333333-3333-4333-8333-333333333333');
    expect(principal.propertyIds).toHaveLength(2);
  });
});

describe('pageOf', () => {
  it('[READ-19] limit defaults to 100 and offset to 0; given values are kept', () => {
    expect(pageOf({})).toEqual({ limit: 100, offset: 0 });
    expect(pageOf({ limit: 1000, offset: 7 })).toEqual({ limit: 1000, offset: 7 });
    expect(pageOf({ offset: 3 })).toEqual({ limit: 100, offset: 3 });
  });
});
