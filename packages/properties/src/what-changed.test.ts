import { describe, expect, it } from 'vitest';
import { emptyCounts, type PeriodCounts } from './overview-counts.ts';
import { countFigure, percentFigure } from './overview-figures.ts';
import { propertyChanges, WHAT_CHANGED_SHOWN, whatChanged } from './what-changed.ts';

// The thresholds of "what changed" (docs/console.md lists them) at their edges, and the trend words.

const shop = { id: '00000000-0000-4000-8000-000000000001', name: 'Shop' };
const week = (fill: (c: PeriodCounts) => void) => {
  const counts = emptyCounts();
  fill(counts);
  return counts;
};
const answers = (responses: number, mentions: number) => ({ responses, mentions, sentimentCount: 0, sentimentSum: 0 });
const texts = (now: PeriodCounts, before: PeriodCounts) => propertyChanges(shop, now, before).map((c) => c.text);

describe('what changed since last week', () => {
  it('names a platform whose visibility moved 5 points or more over 10 answers or more each week', () => {
    const before = week((c) => c.byModel.set('perplexity', answers(50, 25)));
    expect(
      texts(
        week((c) => c.byModel.set('perplexity', answers(50, 23))),
        before,
      ),
    ).toEqual([]);
    expect(
      texts(
        week((c) => c.byModel.set('perplexity', answers(50, 27))),
        before,
      ),
    ).toEqual([]);
    expect(
      texts(
        week((c) => c.byModel.set('perplexity', answers(50, 22))),
        before,
      ),
    ).toEqual(['Visibility on Perplexity fell 6 points (from 50% to 44% of answers)']);
    expect(
      texts(
        week((c) => c.byModel.set('perplexity', answers(20, 11))),
        before,
      ),
    ).toEqual(['Visibility on Perplexity rose 5 points (from 50% to 55% of answers)']);
    // 9 answers in a week are too few to read a movement into.
    expect(
      texts(
        week((c) => c.byModel.set('perplexity', answers(9, 0))),
        before,
      ),
    ).toEqual([]);
  });

  it('names crawler and visit movements of 25% or more with 20 in the busier week, and new sources from 5', () => {
    const before = week((c) => {
      c.crawlers.set('GPTBot', 100);
      c.crawlers.set('Bytespider', 10);
      c.visits.set('claude', 40);
    });
    const now = week((c) => {
      c.crawlers.set('GPTBot', 76);
      c.crawlers.set('Bytespider', 15);
      c.crawlers.set('ClaudeBot', 4);
      c.crawlers.set('PerplexityBot', 5);
      c.visits.set('claude', 20);
    });
    expect(texts(now, before)).toEqual([
      'PerplexityBot visits started: 5, none the week before',
      'Visits referred by Claude down 50% (from 40 to 20)',
    ]);
    now.crawlers.set('GPTBot', 75);
    expect(texts(now, before)).toContain('GPTBot visits down 25% (from 100 to 75)');
  });

  it('names every AI lead of the week, a new competitor from 2 answers, and rank moves of half a place', () => {
    const before = week((c) => {
      c.leads.set('chatgpt', 2);
      c.competitors.set('Globex', 3);
      c.ranked = 5;
      c.rankSum = 5;
    });
    const now = week((c) => {
      c.leads.set('chatgpt', 1);
      c.competitors.set('Globex', 9);
      c.competitors.set('Initech', 2);
      c.competitors.set('Umbrella', 1);
      c.ranked = 5;
      c.rankSum = 8;
    });
    expect(texts(now, before)).toEqual([
      'Average rank among the brands named worsened from 1 to 1.6',
      '1 AI lead from ChatGPT (2 the week before)',
      'A new competitor, Initech, was named in 2 answers (none the week before)',
    ]);
  });

  it(`keeps the ${WHAT_CHANGED_SHOWN} largest movements, largest first`, () => {
    const now = week((c) => {
      for (let i = 1; i <= 12; i++) c.crawlers.set(`Bot${String(i).padStart(2, '0')}`, 5 * i);
    });
    const listed = whatChanged(propertyChanges(shop, now, emptyCounts()));
    expect(listed).toHaveLength(WHAT_CHANGED_SHOWN);
    expect(listed[0]?.text).toBe('Bot12 visits started: 60, none the week before');
    expect(listed.at(-1)?.text).toBe('Bot05 visits started: 25, none the week before');
  });
});

describe('overview trends', () => {
  it('reads counts as relative changes, "new" after a period with none, and percentages in points', () => {
    expect(countFigure(5, 0)).toEqual({ current: 5, previous: 0, changePercent: null, trend: 'new' });
    expect(countFigure(0, 0)).toEqual({ current: 0, previous: 0, changePercent: null, trend: 'none' });
    expect(countFigure(0, 4)).toEqual({ current: 0, previous: 4, changePercent: -100, trend: 'down' });
    expect(countFigure(3, 3)).toEqual({ current: 3, previous: 3, changePercent: 0, trend: 'flat' });
    expect(percentFigure([1, 3], [0, 0])).toEqual({ current: 33.3, previous: null, changePoints: null, trend: 'new' });
    expect(percentFigure([1, 4], [1, 2])).toEqual({ current: 25, previous: 50, changePoints: -25, trend: 'down' });
  });
});
