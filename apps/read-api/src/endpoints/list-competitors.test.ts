import { competitorShareSchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RANGE_DAYS,
  day,
  endpointSuite,
  expectRowsMatch,
  type Range,
  sortBy,
  TODAY,
} from '../testing/index.ts';

// listCompetitors (READ-20, READ-29) against this file's own endpoint world; expected shares come
// from the world's model in ../testing.

const { world, all, expectedCompetitors } = endpointSuite();

describe('GET /v1/competitors', () => {
  it('[READ-20] competitors count over the same default range and honour from/to', async () => {
    const byDefault = await all('/v1/competitors');
    expect(sortBy(byDefault.data, (c) => String(c.id))).toEqual(
      sortBy(expectedCompetitors('all'), (c) => String(c.id)),
    );
    const range = { from: day(3), to: day(3) };
    const one = await all('/v1/competitors', range);
    expect(sortBy(one.data, (c) => String(c.id))).toEqual(
      sortBy(expectedCompetitors('all', { range }), (c) => String(c.id)),
    );
  });

  it('[READ-29] /v1/competitors: every competitor incl. zero-mention ones, share of voice per property, brand', async () => {
    const body = await all('/v1/competitors');
    expectRowsMatch(competitorShareSchema, body.data);
    expect(sortBy(body.data, (c) => String(c.id))).toEqual(sortBy(expectedCompetitors('all'), (c) => String(c.id)));
    const quiet = body.data.filter((c) => c.name === 'Quiet');
    expect(quiet).toHaveLength(2);
    for (const q of quiet) expect(q).toMatchObject({ mentions: 0, shareOfVoice: 0 });
    // Per property the shares of brand and competitors add up to 1.
    for (const prop of ['growth', 'starter'] as const) {
      const rows = body.data.filter((c) => c.propertyId === world.properties[prop].id) as {
        shareOfVoice: number;
        brand: { shareOfVoice: number };
      }[];
      expect(rows.reduce((s, c) => s + c.shareOfVoice, 0) + rows[0]!.brand.shareOfVoice).toBeCloseTo(1, 10);
    }
  });

  it('[READ-29] /v1/competitors filters: propertyId, from, to', async () => {
    const growth = world.properties.growth;
    const cases: [Record<string, string>, { propertyId?: string; range?: Range }][] = [
      [{ propertyId: growth.id }, { propertyId: growth.id }],
      [{ from: day(0), to: day(0) }, { range: { from: day(0), to: day(0) } }],
      [{ from: day(2), to: day(1) }, { range: { from: day(2), to: day(1) } }],
      [{ from: day(1), to: day(1) }, { range: { from: day(1), to: day(1) } }],
      [{ from: day(12) }, { range: { from: day(12), to: TODAY } }],
      [{ to: day(3) }, { range: { from: day(3 + DEFAULT_RANGE_DAYS - 1), to: day(3) } }],
      [
        { propertyId: growth.id, from: day(9), to: day(3) },
        { propertyId: growth.id, range: { from: day(9), to: day(3) } },
      ],
    ];
    for (const [query, filter] of cases) {
      const body = await all('/v1/competitors', query);
      const expected = expectedCompetitors('all', filter);
      expect(body.total, JSON.stringify(query)).toBe(expected.length);
      expect(
        sortBy(body.data, (c) => String(c.id)),
        JSON.stringify(query),
      ).toEqual(sortBy(expected, (c) => String(c.id)));
    }
    // Today (hit day, multiple of 3): brand and Rival split the voice evenly.
    const today = await all('/v1/competitors', { propertyId: growth.id, from: TODAY, to: TODAY });
    expect(today.data.find((c) => c.name === 'Rival')).toMatchObject({
      mentions: 4,
      shareOfVoice: 0.5,
      brand: { mentions: 4, shareOfVoice: 0.5 },
    });
  });
});
