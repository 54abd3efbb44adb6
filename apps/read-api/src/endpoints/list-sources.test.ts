import { sourceDomainSchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AnswerFilter,
  DEFAULT_RANGE_DAYS,
  day,
  endpointSuite,
  expectRowsMatch,
  sortBy,
  TODAY,
} from '../testing/index.ts';

// listSources (READ-29) against this file's own endpoint world; expected domains come from the
// world's model in ../testing.

const { world, list, all, expectedSources } = endpointSuite();

describe('GET /v1/sources', () => {
  it('[READ-29] /v1/sources: domain, citations, responses, share', async () => {
    const body = await all('/v1/sources');
    expectRowsMatch(sourceDomainSchema, body.data);
    expect(sortBy(body.data, (s) => String(s.domain))).toEqual(sortBy(expectedSources('all'), (s) => String(s.domain)));
    const total = (body.data as { share: number }[]).reduce((s, d) => s + d.share, 0);
    expect(total).toBeCloseTo(1, 10);
  });

  it('[READ-29] /v1/sources filters: propertyId, model, from, to', async () => {
    const starter = world.properties.starter;
    const cases: [Record<string, string>, AnswerFilter][] = [
      [{ propertyId: starter.id }, { propertyId: starter.id }],
      [{ model: 'chatgpt' }, { model: 'chatgpt' }],
      [{ from: day(1), to: day(1) }, { range: { from: day(1), to: day(1) } }],
      [{ from: day(8) }, { range: { from: day(8), to: TODAY } }],
      [{ to: day(8) }, { range: { from: day(8 + DEFAULT_RANGE_DAYS - 1), to: day(8) } }],
      [
        { propertyId: starter.id, model: 'perplexity', from: day(5), to: day(2) },
        { propertyId: starter.id, model: 'perplexity', range: { from: day(5), to: day(2) } },
      ],
    ];
    for (const [query, filter] of cases) {
      const body = await all('/v1/sources', query);
      const expected = expectedSources('all', filter);
      expect(expected.length).toBeGreaterThan(0);
      expect(body.total, JSON.stringify(query)).toBe(expected.length);
      expect(
        sortBy(body.data, (s) => String(s.domain)),
        JSON.stringify(query),
      ).toEqual(sortBy(expected, (s) => String(s.domain)));
    }
    expect(await list('/v1/sources', { model: 'gemini' })).toMatchObject({ data: [], total: 0 });
  });
});
