import { describe, expect, it } from 'vitest';
import { rankAmongBrands, sentimentInWords } from './answer-insights.ts';

describe('a verdict in words', () => {
  it('words the sentiment with VADER’s thresholds: positive from +0.05, negative to −0.05', () => {
    expect(sentimentInWords(null)).toBeNull();
    expect(sentimentInWords(0.05)).toBe('positive');
    expect(sentimentInWords(0.049)).toBe('neutral');
    expect(sentimentInWords(0)).toBe('neutral');
    expect(sentimentInWords(-0.049)).toBe('neutral');
    expect(sentimentInWords(-0.05)).toBe('negative');
    expect(sentimentInWords(-1)).toBe('negative');
    expect(sentimentInWords(1)).toBe('positive');
  });

  it('ranks the brand 1 + the competitors first named before it, none when it is not named', () => {
    expect(rankAmongBrands(null, [0, 10])).toBeNull();
    expect(rankAmongBrands(5, [])).toBe(1);
    expect(rankAmongBrands(5, [10, 20])).toBe(1);
    expect(rankAmongBrands(15, [10, 20])).toBe(2);
    expect(rankAmongBrands(25, [0, 10, 20])).toBe(4);
  });
});
