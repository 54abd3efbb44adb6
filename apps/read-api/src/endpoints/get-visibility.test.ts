import { visibilityPointSchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AnswerFilter,
  day,
  EXTRA_MODEL,
  endpointSuite,
  expectRowsMatch,
  LONG_BACK,
  type Row,
  sortBy,
} from '../testing/index.ts';

// getVisibility (READ-29) against this file's own endpoint world; expected points come from the
// world's model in ../testing.

const { world, all, expectedVisibility } = endpointSuite();

describe('GET /v1/visibility', () => {
  it('[READ-29] /v1/visibility: one point per day/property/model with rate and averages over mentioned answers', async () => {
    const body = await all('/v1/visibility');
    expectRowsMatch(visibilityPointSchema, body.data);
    const key = (p: Row) => `${p.date}|${p.propertyId}|${p.model}`;
    expect(sortBy(body.data, key)).toEqual(sortBy(expectedVisibility('all'), key));
    for (const point of body.data as {
      mentions: number;
      averagePosition: number | null;
      averageSentiment: number | null;
    }[]) {
      if (point.mentions === 0) expect([point.averagePosition, point.averageSentiment]).toEqual([null, null]);
      else expect(point.averagePosition).not.toBeNull();
    }
  });

  it('[READ-29] /v1/visibility filters: propertyId, model, promptId, from, to (and combined)', async () => {
    const growth = world.properties.growth;
    const key = (p: Row) => `${p.date}|${p.propertyId}|${p.model}`;
    const cases: [Record<string, string>, AnswerFilter][] = [
      [{ propertyId: growth.id }, { propertyId: growth.id }],
      [{ model: 'perplexity' }, { model: 'perplexity' }],
      [{ promptId: growth.promptIds[0] }, { promptId: growth.promptIds[0] }],
      [{ from: day(6), to: day(3) }, { range: { from: day(6), to: day(3) } }],
      [
        { propertyId: growth.id, model: 'chatgpt', promptId: growth.promptIds[1], from: day(4), to: day(0) },
        { propertyId: growth.id, model: 'chatgpt', promptId: growth.promptIds[1], range: { from: day(4), to: day(0) } },
      ],
      [
        { from: day(LONG_BACK), to: day(LONG_BACK), model: EXTRA_MODEL },
        { range: { from: day(LONG_BACK), to: day(LONG_BACK) }, model: EXTRA_MODEL },
      ],
    ];
    for (const [query, filter] of cases) {
      const expected = expectedVisibility('all', filter);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      const body = await all('/v1/visibility', query);
      expect(body.total, JSON.stringify(query)).toBe(expected.length);
      expect(sortBy(body.data, key)).toEqual(sortBy(expected, key));
    }
    // With one prompt, a point is one answer: rate 1 on hit days, 0 with null averages on miss days.
    const single = await all<{
      date: string;
      responses: number;
      visibilityRate: number;
      averagePosition: number | null;
    }>('/v1/visibility', {
      propertyId: growth.id,
      promptId: growth.promptIds[0],
      model: 'chatgpt',
      from: day(1),
      to: day(0),
    });
    expect(sortBy(single.data, (p) => p.date)).toEqual([
      expect.objectContaining({ date: day(1), responses: 1, visibilityRate: 0, averagePosition: null }),
      expect.objectContaining({ date: day(0), responses: 1, visibilityRate: 1, averagePosition: 10 }),
    ]);
  });
});
