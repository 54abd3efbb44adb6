import { describe, expect, it } from 'vitest';
import { spreadDelayMs, spreadFraction, spreadInstant } from './spread.ts';

// Issue 32 item 4: a day's prompts are spread over the collection window, each at an instant of
// its own that stays the same from day to day.

const ids = Array.from({ length: 500 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('spread over the day', () => {
  it('puts every prompt inside the window [COLLECT_AT_UTC, + COLLECT_SPREAD_HOURS)', () => {
    const start = Date.parse('2026-11-26T06:00:00Z');
    const end = Date.parse('2026-11-26T18:00:00Z');
    const instants = ids.map((id) => spreadInstant(id, '2026-11-26', '06:00', 12).getTime());
    for (const at of instants) {
      expect(at).toBeGreaterThanOrEqual(start);
      expect(at).toBeLessThan(end);
    }
    // Spread, not bunched: every hour of the window gets some of 500 prompts.
    const hours = new Set(instants.map((at) => Math.floor((at - start) / 3_600_000)));
    expect(hours.size).toBe(12);
  });

  it('is stable: the same prompt gets the same time of day every day, and each prompt its own', () => {
    const id = ids[7] as string;
    const timeOfDay = (day: string) => spreadInstant(id, day, '06:00', 12).toISOString().slice(11);
    expect(timeOfDay('2026-11-27')).toBe(timeOfDay('2026-11-26'));
    expect(timeOfDay('2027-03-01')).toBe(timeOfDay('2026-11-26'));
    expect(spreadFraction(id)).toBe(spreadFraction(id));
    expect(new Set(ids.map(spreadFraction)).size).toBe(ids.length);
  });

  it('never spills into the next UTC day, and 0 hours asks at once', () => {
    for (const id of ids) {
      const at = spreadInstant(id, '2026-11-26', '20:00', 12).getTime();
      expect(at).toBeGreaterThanOrEqual(Date.parse('2026-11-26T20:00:00Z'));
      expect(at).toBeLessThan(Date.parse('2026-11-27T00:00:00Z'));
      expect(spreadInstant(id, '2026-11-26', '06:00', 0).toISOString()).toBe('2026-11-26T06:00:00.000Z');
    }
  });

  it('a late run holds only the prompts whose instant is still ahead', () => {
    const noon = new Date('2026-11-26T12:00:00Z');
    const delays = ids.map((id) => spreadDelayMs(id, '2026-11-26', '06:00', 12, noon));
    const ahead = ids.filter((id) => spreadInstant(id, '2026-11-26', '06:00', 12) > noon);
    expect(delays.filter((d) => d > 0)).toHaveLength(ahead.length);
    expect(ahead.length).toBeGreaterThan(0);
    expect(ahead.length).toBeLessThan(ids.length);
    expect(Math.max(...delays)).toBeLessThanOrEqual(6 * 3_600_000);
  });
});
