// Small readers for values as providers write them: times in several units, numbers as strings,
// user agents percent-encoded.

/**
 * An epoch time in seconds, milliseconds, microseconds or nanoseconds as milliseconds, told by its
 * size: every instant from 1973 to 2286 has a different number of digits in each unit.
 */
export function epochMilliseconds(value: number): number {
  if (value >= 1e17) return value / 1e6;
  if (value >= 1e14) return value / 1e3;
  if (value >= 1e11) return value;
  return value * 1000;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * A provider's time as the crawl line's `timestamp` (epoch milliseconds, or ISO 8601 text left for
 * the line's schema to check): a number or a decimal string in any epoch unit, or text as it is.
 */
export function lineTimestamp(value: unknown): unknown {
  if (typeof value === 'number') return epochMilliseconds(value);
  if (typeof value === 'string' && DECIMAL.test(value)) return epochMilliseconds(Number(value));
  return value;
}

/** A status code written as a number or as decimal text. */
export function statusNumber(value: unknown): unknown {
  if (typeof value === 'string' && /^\d{3}$/.test(value)) return Number(value);
  return value;
}

/**
 * Percent-encoded text (`+` for a space, as in a form) decoded; text that is not valid
 * percent-encoding is kept as it came.
 */
export function formDecoded(value: unknown): unknown {
  if (typeof value !== 'string' || (!value.includes('%') && !value.includes('+'))) return value;
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
}

/** Percent-encoded text decoded (`+` stays a plus, as CloudFront writes it); invalid text kept. */
export function percentDecoded(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
