import { describe, expect, it } from 'vitest';
import { epochMilliseconds, formDecoded, lineTimestamp, percentDecoded, statusNumber } from './record-values.ts';

describe("providers' values", () => {
  it('reads an epoch time in seconds, milliseconds, microseconds or nanoseconds as milliseconds', () => {
    const ms = Date.parse('2026-11-20T10:00:00.123Z');
    expect(epochMilliseconds(ms / 1000)).toBe(ms);
    expect(epochMilliseconds(ms)).toBe(ms);
    expect(epochMilliseconds(ms * 1000)).toBe(ms);
    expect(epochMilliseconds(ms * 1e6)).toBeCloseTo(ms, -1);
    // The oldest and newest instants each unit tells apart: 1973 and 2286.
    expect(new Date(epochMilliseconds(1e11 - 1)).getUTCFullYear()).toBe(5138);
    expect(new Date(epochMilliseconds(1e11)).getUTCFullYear()).toBe(1973);
  });

  it('reads decimal text (Akamai, CloudFront) as epoch time, and leaves other text for the line schema', () => {
    expect(lineTimestamp('1763632800.937')).toBe(1_763_632_800_937);
    expect(lineTimestamp('1763632800')).toBe(1_763_632_800_000);
    expect(lineTimestamp('2026-11-20T10:00:00Z')).toBe('2026-11-20T10:00:00Z');
    expect(lineTimestamp('1e400')).toBe('1e400');
  });

  it('reads a three-digit status text as a number and nothing else', () => {
    expect(statusNumber('206')).toBe(206);
    expect(statusNumber('2000')).toBe('2000');
    expect(statusNumber(200)).toBe(200);
  });

  it('decodes percent-encoding, with + as a space only where the provider writes forms', () => {
    expect(formDecoded('Mozilla%2F5.0+%28compatible%29')).toBe('Mozilla/5.0 (compatible)');
    expect(percentDecoded('a+b%20c')).toBe('a+b c');
    // Not valid percent-encoding: kept as it came.
    expect(formDecoded('%E0%A4%A')).toBe('%E0%A4%A');
    expect(percentDecoded('100%')).toBe('100%');
  });
});
