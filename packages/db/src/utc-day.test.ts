import { describe, expect, it } from 'vitest';
import { addUtcDays, formatUtcDay, parseUtcDay, utcDay } from './utc-day.ts';

describe('UTC days', () => {
  it('an instant belongs to its UTC day, whatever the offset it was written with', () => {
    expect(formatUtcDay(utcDay(new Date('2026-11-20T23:59:59.999Z')))).toBe('2026-11-20');
    expect(formatUtcDay(utcDay(new Date('2026-11-21T00:30:00+02:00')))).toBe('2026-11-20');
    expect(formatUtcDay(utcDay(new Date('2026-11-21T00:00:00.000Z')))).toBe('2026-11-21');
  });

  it('parses only real calendar days in yyyy-MM-dd', () => {
    expect(parseUtcDay('2026-02-28')?.toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(parseUtcDay('2028-02-29')).not.toBeNull();
    expect(parseUtcDay('2026-02-29')).toBeNull();
    expect(parseUtcDay('2026-13-01')).toBeNull();
    expect(parseUtcDay('2026-1-01')).toBeNull();
    expect(parseUtcDay('20261101')).toBeNull();
    expect(parseUtcDay('2026-11-01T00:00:00Z')).toBeNull();
  });

  it('adds days across month and year ends', () => {
    expect(formatUtcDay(addUtcDays(parseUtcDay('2026-12-31')!, 1))).toBe('2027-01-01');
    expect(formatUtcDay(addUtcDays(parseUtcDay('2026-03-01')!, -29))).toBe('2026-01-31');
  });
});
