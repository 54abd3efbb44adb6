import {
  competitorShareSchema,
  promptSchema,
  propertySchema,
  responseDetailSchema,
  responseSchema,
  sourceDomainSchema,
  sourceUrlSchema,
  taskSchema,
  visibilityPointSchema,
} from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  DEFAULT_RANGE_DAYS,
  day,
  dayBefore,
  endpointSuite,
  expectRowsMatch,
  LIST_PATHS,
  type Query,
  type Range,
  type ResponseRow,
  STALE_BACK,
  strictDeep,
  TODAY,
  WORLD_MODELS,
} from './testing/index.ts';

// Rules every /v1 list shares, checked across all of them at once so a new endpoint cannot miss
// one: the {data, total} envelope (READ-6), the date range of the time series (READ-20) and strict
// contract schemas (READ-29).

const {
  harness,
  world,
  get,
  list,
  all,
  expectedAnswers,
  expectedVisibility,
  expectedCompetitors,
  expectedSources,
  expectedUrls,
  expectedTotals,
} = endpointSuite();

// ------------------------------------------------------------------ READ-6 envelopes

describe('envelopes', () => {
  it('[READ-6] every list endpoint answers {data, total} with total = every match', async () => {
    const totals = expectedTotals('all');
    // Sanity of the model itself: 2 properties × 2 prompts × 2 models × 30 days.
    expect(totals['/v1/responses']).toBe(2 * 2 * WORLD_MODELS.length * DEFAULT_RANGE_DAYS);
    for (const path of LIST_PATHS) {
      const body = await all(path);
      expect(body.total, path).toBe(totals[path]);
      expect(body.data, path).toHaveLength(totals[path]);
    }
  });

  it('[READ-6] total is the same with limit=1, limit=1000 and the default limit', async () => {
    const totals = expectedTotals('all');
    for (const path of LIST_PATHS) {
      const one = await list(path, { limit: 1 });
      const max = await list(path, { limit: 1000 });
      const byDefault = await list(path);
      expect(one.data, path).toHaveLength(1);
      expect([one.total, max.total, byDefault.total], path).toEqual([totals[path], totals[path], totals[path]]);
      expect(byDefault.data, path).toHaveLength(Math.min(100, totals[path]));
    }
  });

  it('[READ-6] an offset past the end gives data [] and the same total (aggregates included)', async () => {
    const totals = expectedTotals('all');
    for (const path of LIST_PATHS) {
      const past = await list(path, { offset: totals[path] + 5 });
      expect(past, path).toMatchObject({ data: [], total: totals[path] });
      const exactlyAtEnd = await list(path, { offset: totals[path], limit: 1 });
      expect(exactlyAtEnd, path).toMatchObject({ data: [], total: totals[path] });
    }
  });

  it('[READ-6] aggregate endpoints keep their total on every page, filters applied', async () => {
    const growth = world.properties.growth.id;
    const cases: [string, Record<string, string>, number][] = [
      ['/v1/visibility', { propertyId: growth }, expectedVisibility('all', { propertyId: growth }).length],
      ['/v1/visibility', { model: 'chatgpt' }, expectedVisibility('all', { model: 'chatgpt' }).length],
      ['/v1/competitors', { propertyId: growth }, expectedCompetitors('all', { propertyId: growth }).length],
      ['/v1/sources', { propertyId: growth }, expectedSources('all', { propertyId: growth }).length],
      ['/v1/sources/urls', { domain: 'wikipedia.org' }, expectedUrls('all', { domain: 'wikipedia.org' }).length],
    ];
    for (const [path, query, total] of cases) {
      expect(total, path).toBeGreaterThan(0);
      const pages: Query[] = [
        { limit: 1 },
        { limit: 1000 },
        { limit: 1, offset: total - 1 },
        { offset: total },
        { offset: total + 100 },
      ];
      for (const page of pages) {
        const body = await list(path, { ...query, ...page });
        expect(body.total, `${path} ${JSON.stringify(page)}`).toBe(total);
        const limit = Number(page.limit ?? 100);
        const offset = Number(page.offset ?? 0);
        expect(body.data).toHaveLength(Math.max(0, Math.min(limit, total - offset)));
      }
    }
  });
});

// ------------------------------------------------------------------ READ-20 ranges

describe('time-series ranges', () => {
  const datesOf = (rows: { date: string }[]) => [...new Set(rows.map((r) => r.date))].sort();
  const daysBetween = (from: string, to: string) => {
    const days: string[] = [];
    for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
      days.push(new Date(t).toISOString().slice(0, 10));
    }
    return days;
  };

  /** The days each time-series endpoint covers for a query: from the rows' dates, or firstSeen/lastSeen. */
  async function coveredDays(query: Record<string, string> = {}) {
    const responses = datesOf((await all<ResponseRow>('/v1/responses', query)).data);
    const visibility = datesOf((await all<{ date: string }>('/v1/visibility', query)).data);
    const wikipedia = (
      await all<{ url: string; firstSeen: string; lastSeen: string }>('/v1/sources/urls', query)
    ).data.find((u) => u.url === 'https://www.wikipedia.org/wiki/Vendors');
    const sources = (await all<{ domain: string; citations: number }>('/v1/sources', query)).data.find(
      (s) => s.domain === 'wikipedia.org',
    );
    return { responses, visibility, wikipedia, sources };
  }

  /** Expected coverage when the range is [from, to]: the fixture has answers every day, 4 per property. */
  function expectCoverage(covered: Awaited<ReturnType<typeof coveredDays>>, range: Range) {
    const days = daysBetween(range.from, range.to);
    expect(covered.responses).toEqual(days);
    expect(covered.visibility).toEqual(days);
    expect(covered.wikipedia?.firstSeen).toBe(range.from);
    expect(covered.wikipedia?.lastSeen).toBe(range.to);
    // wikipedia.org is cited once by every answer.
    expect(covered.sources?.citations).toBe(expectedAnswers('all', { range }).length);
  }

  it('[READ-20] with no from/to, every time-series endpoint covers the 30 UTC days ending today', async () => {
    const covered = await coveredDays();
    expect(covered.responses).toHaveLength(DEFAULT_RANGE_DAYS);
    expectCoverage(covered, { from: day(DEFAULT_RANGE_DAYS - 1), to: TODAY });
    const body = await all('/v1/responses');
    expect(body.total).toBe(DEFAULT_RANGE_DAYS * 2 * 2 * WORLD_MODELS.length);
  });

  it('[READ-20] to alone covers the 30 days ending on it', async () => {
    const to = day(5);
    const covered = await coveredDays({ to });
    expect(covered.responses).toHaveLength(DEFAULT_RANGE_DAYS);
    expectCoverage(covered, { from: day(5 + DEFAULT_RANGE_DAYS - 1), to });
  });

  it('[READ-20] from alone covers from through today (documented choice), even beyond 30 days', async () => {
    const short = await coveredDays({ from: day(10) });
    expect(short.responses).toHaveLength(11);
    expectCoverage(short, { from: day(10), to: TODAY });
    const long = await coveredDays({ from: day(35) });
    expect(long.responses).toHaveLength(36);
    expectCoverage(long, { from: day(35), to: TODAY });
  });

  it('[READ-20] from == to covers exactly that one day', async () => {
    const covered = await coveredDays({ from: day(7), to: day(7) });
    expectCoverage(covered, { from: day(7), to: day(7) });
    expect((await all('/v1/responses', { from: day(7), to: day(7) })).total).toBe(2 * 2 * WORLD_MODELS.length);
  });

  it('[READ-20] from and to are inclusive UTC days', async () => {
    const range = { from: day(12), to: day(9) };
    const covered = await coveredDays(range);
    expect(covered.responses[0]).toBe(range.from);
    expect(covered.responses.at(-1)).toBe(range.to);
    expectCoverage(covered, range);
    expect((await all('/v1/responses', range)).total).toBe(4 * 2 * 2 * WORLD_MODELS.length);
  });

  it('[READ-20] the default range shifts by exactly one day at midnight UTC', async () => {
    const lastMoment = new Date('2026-03-14T23:59:59.999Z');
    const firstMoment = new Date('2026-03-15T00:00:00.000Z');

    harness.setNow(lastMoment);
    const before = await coveredDays();
    harness.setNow(firstMoment);
    const after = await coveredDays();

    const beforeRange = { from: dayBefore(lastMoment, DEFAULT_RANGE_DAYS - 1), to: dayBefore(lastMoment, 0) };
    const afterRange = { from: dayBefore(firstMoment, DEFAULT_RANGE_DAYS - 1), to: dayBefore(firstMoment, 0) };
    expect(beforeRange.to).toBe('2026-03-14');
    expect(afterRange.to).toBe('2026-03-15');
    expectCoverage(before, beforeRange);
    expectCoverage(after, afterRange);
    // One day dropped at the start, one added at the end, nothing else changed.
    expect(after.responses.slice(0, -1)).toEqual(before.responses.slice(1));
    expect(after.responses[0]).toBe(dayBefore(firstMoment, DEFAULT_RANGE_DAYS - 1));
    expect(before.responses[0]).toBe(dayBefore(lastMoment, DEFAULT_RANGE_DAYS - 1));
  });

  it('[READ-20] a clock past the data shows the shift as one day less of data (and competitors too)', async () => {
    harness.setNow(new Date('2026-03-15T23:59:59.999Z'));
    const before = await all('/v1/responses');
    const beforeCompetitors = await all<{ name: string; propertyId: string; mentions: number }>('/v1/competitors');
    harness.setNow(new Date('2026-03-16T00:00:00.000Z'));
    const after = await all<ResponseRow>('/v1/responses');
    const afterCompetitors = await all<{ name: string; propertyId: string; mentions: number }>('/v1/competitors');
    const perDay = 2 * 2 * WORLD_MODELS.length;
    expect(before.total).toBe(DEFAULT_RANGE_DAYS * perDay);
    // 2026-03-16 has no answers yet and 2026-02-14 (29 days back from today) left the range.
    expect(after.total).toBe((DEFAULT_RANGE_DAYS - 1) * perDay);
    expect(datesOf(after.data)[0]).toBe(day(DEFAULT_RANGE_DAYS - 2));
    // Day 29 back is odd (no brand mention) and not a multiple of 3: Rival's count is unchanged.
    const rival = (rows: { name: string; propertyId: string; mentions: number }[]) =>
      rows.find((c) => c.name === 'Rival' && c.propertyId === world.properties.growth.id)?.mentions;
    expect(rival(afterCompetitors.data)).toBe(rival(beforeCompetitors.data));
  });
});

// ------------------------------------------------------------------ READ-29 contract schemas

describe('contract schemas', () => {
  it('[READ-29] every row of every endpoint validates strictly against its @vt/contracts schema', async () => {
    const wide = { from: day(STALE_BACK), to: TODAY };
    const checks: [string, z.ZodType, Record<string, string>][] = [
      ['/v1/responses', responseSchema, wide],
      ['/v1/tasks', taskSchema, {}],
      ['/v1/properties', propertySchema, {}],
      ['/v1/prompts', promptSchema, {}],
      ['/v1/visibility', visibilityPointSchema, wide],
      ['/v1/competitors', competitorShareSchema, wide],
      ['/v1/sources', sourceDomainSchema, wide],
      ['/v1/sources/urls', sourceUrlSchema, wide],
    ];
    for (const key of ['all', 'teamB'] as const) {
      for (const [path, schema, query] of checks) {
        const body = await all(path, query, key);
        expect(body.data.length, `${key} ${path}`).toBeGreaterThan(0);
        expectRowsMatch(schema, body.data);
      }
    }
    const [row] = (await list<ResponseRow>('/v1/responses', { limit: 1 })).data;
    const detail = await get(`/v1/responses/${row!.id}`);
    expectRowsMatch(responseDetailSchema, [detail.body.data]);
    // The strict check does catch an extra key.
    expect(strictDeep(responseSchema).safeParse({ ...row, text: 'x' }).success).toBe(false);
    expect(strictDeep(responseSchema).safeParse({ ...row, property: { ...row!.property, x: 1 } }).success).toBe(false);
  });
});
