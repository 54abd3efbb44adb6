import { sourceUrlSchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import { type AnswerFilter, day, endpointSuite, expectRowsMatch, sortBy } from '../testing/index.ts';

// listSourceUrls (READ-29) against this file's own endpoint world; expected URLs come from the
// world's model in ../testing.

const { world, list, all, expectedUrls } = endpointSuite();

describe('GET /v1/sources/urls', () => {
  it('[READ-29] /v1/sources/urls: url, domain, citations, responses, firstSeen, lastSeen', async () => {
    const body = await all('/v1/sources/urls');
    expectRowsMatch(sourceUrlSchema, body.data);
    expect(sortBy(body.data, (u) => String(u.url))).toEqual(sortBy(expectedUrls('all'), (u) => String(u.url)));
  });

  it('[READ-29] /v1/sources/urls filters: propertyId, model, domain (www. stripped, case-insensitive), from, to', async () => {
    const growth = world.properties.growth;
    const cases: [Record<string, string>, AnswerFilter & { domain?: string }][] = [
      [{ propertyId: growth.id }, { propertyId: growth.id }],
      [{ model: 'perplexity' }, { model: 'perplexity' }],
      [{ domain: 'wikipedia.org' }, { domain: 'wikipedia.org' }],
      [{ domain: 'www.wikipedia.org' }, { domain: 'wikipedia.org' }],
      [{ domain: 'WWW.Wikipedia.ORG' }, { domain: 'wikipedia.org' }],
      [{ domain: 'docs.growth.example.com' }, { domain: 'docs.growth.example.com' }],
      [{ from: day(13), to: day(11) }, { range: { from: day(13), to: day(11) } }],
      [
        { propertyId: growth.id, model: 'chatgpt', domain: 'www.docs.growth.example.com', from: day(7), to: day(1) },
        {
          propertyId: growth.id,
          model: 'chatgpt',
          domain: 'docs.growth.example.com',
          range: { from: day(7), to: day(1) },
        },
      ],
    ];
    for (const [query, filter] of cases) {
      const body = await all('/v1/sources/urls', query);
      const expected = expectedUrls('all', filter);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(body.total, JSON.stringify(query)).toBe(expected.length);
      expect(
        sortBy(body.data, (u) => String(u.url)),
        JSON.stringify(query),
      ).toEqual(sortBy(expected, (u) => String(u.url)));
    }
    // firstSeen/lastSeen are bounded by the range: the docs URL is cited on hit (even) days only.
    const docs = await all('/v1/sources/urls', { domain: 'docs.growth.example.com', from: day(7), to: day(1) });
    expect(docs.data).toEqual([expect.objectContaining({ firstSeen: day(6), lastSeen: day(2) })]);
    expect(await list('/v1/sources/urls', { domain: 'nowhere.example' })).toMatchObject({ data: [], total: 0 });
  });
});
