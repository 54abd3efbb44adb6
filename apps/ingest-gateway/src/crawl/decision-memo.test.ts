import { describe, expect, it } from 'vitest';
import { DecisionMemo, MAX_REMEMBERED_LENGTH } from './decision-memo.ts';

describe('DecisionMemo', () => {
  it('decides a text once, looked up where it stands in a chunk', () => {
    const decided: string[] = [];
    const memo = new DecisionMemo((text) => {
      decided.push(text);
      return text.includes('Bot');
    });
    const chunk = 'ua=GPTBot/1.2;ua=Safari;ua=GPTBot/1.2;';
    expect(memo.get(chunk, 3, 13)).toBe(true);
    expect(memo.get(chunk, 17, 23)).toBe(false);
    expect(memo.get(chunk, 27, 37)).toBe(true);
    expect(decided).toEqual(['GPTBot/1.2', 'Safari']);
  });

  it('decides a text longer than any real user agent or referer every time, never keeping it', () => {
    const decided: number[] = [];
    const memo = new DecisionMemo((text) => {
      decided.push(text.length);
      return false;
    });
    const long = 'x'.repeat(MAX_REMEMBERED_LENGTH + 1);
    expect(memo.get(long, 0, long.length)).toBe(false);
    expect(memo.get(long, 0, long.length)).toBe(false);
    expect(decided).toEqual([long.length, long.length]);
    const longest = long.slice(1);
    memo.get(longest, 0, longest.length);
    memo.get(longest, 0, longest.length);
    expect(decided).toHaveLength(3);
  });
});
