import { describe, expect, it } from 'vitest';
import { isoWeekOf, reportWeekAt } from './report-week.ts';

const day = (text: string) => new Date(`${text}T00:00:00Z`);

describe('the weekly report’s week', () => {
  it('numbers ISO weeks as ISO 8601 does, the year of the week’s Thursday included', () => {
    expect(isoWeekOf(day('2026-11-16'))).toBe('2026-W47');
    expect(isoWeekOf(day('2026-11-22'))).toBe('2026-W47');
    // 2021-01-03 (a Sunday) is in 2020's week 53; 2024-12-30 (a Monday) in 2025's week 1.
    expect(isoWeekOf(day('2021-01-03'))).toBe('2020-W53');
    expect(isoWeekOf(day('2024-12-30'))).toBe('2025-W01');
  });

  it('covers the last complete week, Monday to Sunday, due Monday 08:00 team time', () => {
    // Wednesday 25 November 2026, 10:00 UTC (11:00 in Paris).
    const paris = reportWeekAt(new Date('2026-11-25T10:00:00Z'), 'Europe/Paris');
    expect(paris).toEqual({
      week: '2026-W47',
      from: day('2026-11-16'),
      to: day('2026-11-22'),
      // 08:00 in Paris (UTC+1 in November) is 07:00 UTC.
      dueAt: new Date('2026-11-23T07:00:00Z'),
    });
    // New York, 08:00 EST = 13:00 UTC.
    expect(reportWeekAt(new Date('2026-11-25T10:00:00Z'), 'America/New_York').dueAt).toEqual(
      new Date('2026-11-23T13:00:00Z'),
    );
  });

  it('takes the team’s own Monday: late Sunday in UTC can be Monday already in Tokyo', () => {
    // Sunday 22 November 2026, 20:00 UTC is Monday 23 November, 05:00 in Tokyo.
    const sunday = new Date('2026-11-22T20:00:00Z');
    expect(reportWeekAt(sunday, 'UTC').week).toBe('2026-W46');
    const tokyo = reportWeekAt(sunday, 'Asia/Tokyo');
    expect(tokyo.week).toBe('2026-W47');
    // 08:00 in Tokyo is 23:00 UTC on Sunday, while Sunday is still being counted: due at Monday 00:00 UTC.
    expect(tokyo.dueAt).toEqual(new Date('2026-11-23T00:00:00Z'));
    expect(sunday.getTime()).toBeLessThan(tokyo.dueAt.getTime());
  });

  it('follows daylight saving: 08:00 in Paris is 06:00 UTC in summer', () => {
    expect(reportWeekAt(new Date('2026-07-01T12:00:00Z'), 'Europe/Paris')).toMatchObject({
      week: '2026-W26',
      dueAt: new Date('2026-06-29T06:00:00Z'),
    });
    // The Monday after the autumn change (25 October 2026): 08:00 CET is 07:00 UTC.
    expect(reportWeekAt(new Date('2026-10-26T07:30:00Z'), 'Europe/Paris').dueAt).toEqual(
      new Date('2026-10-26T07:00:00Z'),
    );
  });
});
