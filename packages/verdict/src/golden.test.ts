import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeAnswer } from './index.ts';

// The golden set: real-looking answers in ../golden, one file each, with the verdict expected of
// them written beside the answer (an HTML comment holding JSON). Positions are given as a piece of
// the answer the first mention starts (`at`), so they are checked by indexOf, not by the engine.

interface Expectation {
  mentioned: boolean;
  matchedTerm?: string;
  /** The first mention starts where this text first occurs in the answer. */
  at?: string;
  sentiment?: 'positive' | 'negative' | 'neutral' | 'neutral-or-positive';
  /** The verdict's sources, in order. */
  sources?: string[];
  /** competitor id → the term matched at its first mention. */
  competitors?: Record<string, string>;
  excerptStartsWith?: string;
  excerptEndsWith?: string;
  excerptIncludes?: string;
}

interface GoldenCase {
  file: string;
  answer: string;
  brandTerms: string[];
  competitors: Record<string, string[]>;
  citations: string[];
  expect: Expectation;
}

const dir = new URL('../golden/', import.meta.url);
const cases: GoldenCase[] = readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((file) => {
    const text = readFileSync(new URL(file, dir), 'utf8');
    const match = /^<!--\n([\s\S]*?)\n-->\n([\s\S]*)\n$/.exec(text);
    if (!match) throw new Error(`${file}: expected an <!-- {json} --> header, then the answer`);
    return { file, ...JSON.parse(match[1] as string), answer: match[2] as string };
  });

const SENTIMENT: Record<NonNullable<Expectation['sentiment']>, (s: number) => boolean> = {
  positive: (s) => s > 0.05,
  negative: (s) => s < -0.05,
  neutral: (s) => Math.abs(s) <= 0.05,
  'neutral-or-positive': (s) => s >= -0.05,
};

// READ-22: every excerpt is plain text of at most 300 characters; READ-23: a verdict exists whether
// or not the brand is mentioned, with matchedTerm, position and sentiment null when it is not.
describe('[READ-22][READ-23] the golden set', () => {
  it('holds at least 40 answers', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('$file', ({ answer, brandTerms, competitors, citations, expect: want }) => {
    const verdict = judgeAnswer({
      answer,
      citations,
      brandTerms,
      competitors: Object.entries(competitors).map(([id, terms]) => ({ id, terms })),
    });
    expect(verdict.mentioned).toBe(want.mentioned);
    if (want.mentioned) {
      expect(verdict.matchedTerm).toBe(want.matchedTerm);
      expect(verdict.position).toBe(answer.indexOf(want.at as string));
      // The position points at the matched term in the stored text (accents and case aside).
      const atPosition = answer.slice(
        verdict.position as number,
        (verdict.position as number) + (want.matchedTerm as string).length,
      );
      expect(atPosition.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()).toBe(
        (want.matchedTerm as string).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase(),
      );
      expect(verdict.sentiment).toBeGreaterThanOrEqual(-1);
      expect(verdict.sentiment).toBeLessThanOrEqual(1);
      if (want.sentiment)
        expect(SENTIMENT[want.sentiment](verdict.sentiment as number), `sentiment ${verdict.sentiment}`).toBe(true);
    } else {
      expect(verdict).toMatchObject({ matchedTerm: null, position: null, sentiment: null });
    }
    if (want.sources) expect(verdict.sources.map((s) => s.url)).toEqual(want.sources);
    expect(Object.fromEntries(verdict.competitorMentions.map((c) => [c.competitorId, c.matchedTerm]))).toEqual(
      want.competitors ?? {},
    );
    for (const c of verdict.competitorMentions) {
      expect(c.position).toBeGreaterThanOrEqual(0);
      expect(answer.slice(c.position).toLowerCase().startsWith(c.matchedTerm.toLowerCase())).toBe(true);
    }

    const excerpt = verdict.excerpt;
    expect(Array.from(excerpt).length).toBeLessThanOrEqual(300);
    expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(excerpt).not.toMatch(/\]\(|\*\*|```|^#|\|---/);
    if (want.excerptStartsWith) expect(excerpt.startsWith(want.excerptStartsWith)).toBe(true);
    if (want.excerptEndsWith) expect(excerpt.endsWith(want.excerptEndsWith)).toBe(true);
    if (want.excerptIncludes) expect(excerpt).toContain(want.excerptIncludes);
  });
});
