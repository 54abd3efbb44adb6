import { describe, expect, it } from 'vitest';
import {
  day,
  endpointSuite,
  type KeyName,
  LIST_PATHS,
  PROPERTY_FILTERED_PATHS,
  RANDOM_UUID,
  type ResponseRow,
  TODAY,
  WORLD_DAYS,
} from './testing/index.ts';

// Which rows a key may read, checked across every /v1 list at once (READ-8 paid properties only,
// READ-9 key scope), so a new endpoint cannot forget a rule. Each operation's own file covers its
// single-endpoint cases, e.g. the detail's 404s.

const { world, extraTasks, list, all, expectedAnswers, expectedSources, expectedTasks, expectedTotals } =
  endpointSuite();

// ------------------------------------------------------------------ READ-8 paid properties only

describe('paid properties only', () => {
  it('[READ-8] no list endpoint returns a row of the free or the lapsed property', async () => {
    const hidden = [world.properties.free.id, world.properties.lapsed.id];
    const hiddenPrompts = [...world.properties.free.promptIds, ...world.properties.lapsed.promptIds];
    const hiddenCompetitors = [...world.properties.free.competitorIds, ...world.properties.lapsed.competitorIds];
    const wide = { from: day(WORLD_DAYS - 1), to: TODAY };

    const responses = await all<ResponseRow>('/v1/responses', wide);
    expect(responses.total).toBe(expectedAnswers('all', { range: wide }).length);
    for (const r of responses.data) {
      expect(hidden).not.toContain(r.property.id);
      expect(hiddenPrompts).not.toContain(r.promptId);
    }
    const prompts = await all<{ id: string; propertyId: string }>('/v1/prompts');
    for (const p of prompts.data) expect([...hidden, ...hiddenPrompts]).not.toContain(p.propertyId);
    const tasks = await all<{ id: string; propertyId: string }>('/v1/tasks');
    expect(tasks.data.map((t) => t.id)).not.toContain(extraTasks.free.id);
    expect(tasks.data.map((t) => t.id)).not.toContain(extraTasks.lapsed.id);
    for (const t of tasks.data) expect(hidden).not.toContain(t.propertyId);
    const visibility = await all<{ propertyId: string }>('/v1/visibility', wide);
    for (const v of visibility.data) expect(hidden).not.toContain(v.propertyId);
    const competitors = await all<{ id: string; propertyId: string }>('/v1/competitors', wide);
    for (const c of competitors.data) {
      expect(hidden).not.toContain(c.propertyId);
      expect(hiddenCompetitors).not.toContain(c.id);
    }
    // Sources carry no property id: the hidden brands' own domains never appear, and the shared
    // domain is counted over the readable properties only.
    const sources = await all<{ domain: string; citations: number }>('/v1/sources', wide);
    const domains = sources.data.map((s) => s.domain);
    expect(domains).not.toContain('docs.free.example.com');
    expect(domains).not.toContain('docs.lapsed.example.com');
    expect(sources.data.find((s) => s.domain === 'wikipedia.org')?.citations).toBe(
      expectedSources('all', { range: wide }).find((s) => s.domain === 'wikipedia.org')?.citations,
    );
    const urls = await all<{ url: string; citations: number }>('/v1/sources/urls', wide);
    expect(urls.data.map((u) => u.url)).not.toContain('https://docs.free.example.com/guide');
    expect(urls.data.map((u) => u.url)).not.toContain('https://docs.lapsed.example.com/guide');
  });

  it('[READ-8] propertyId= the free or the lapsed property gives an empty list on every endpoint', async () => {
    for (const prop of ['free', 'lapsed'] as const) {
      for (const path of PROPERTY_FILTERED_PATHS) {
        expect(await list(path, { propertyId: world.properties[prop].id }), `${path} ${prop}`).toMatchObject({
          data: [],
          total: 0,
        });
      }
    }
  });

  it('[READ-8] promptId of a free or lapsed prompt gives an empty list (responses, visibility)', async () => {
    for (const prop of ['free', 'lapsed'] as const) {
      for (const path of ['/v1/responses', '/v1/visibility']) {
        expect(await list(path, { promptId: world.properties[prop].promptIds[0] }), `${path} ${prop}`).toMatchObject({
          data: [],
          total: 0,
        });
      }
    }
  });

  it('[READ-8] the key scoped only to the free property sees empty lists everywhere', async () => {
    for (const path of LIST_PATHS) {
      expect(await list(path, {}, 'empty'), path).toMatchObject({ data: [], total: 0 });
      expect(await list(path, { propertyId: world.properties.free.id }, 'empty'), path).toMatchObject({
        data: [],
        total: 0,
      });
    }
  });
});

// ------------------------------------------------------------------ READ-9 scopes

describe('key scope', () => {
  it('[READ-9] the scoped key sees only the starter property on every endpoint', async () => {
    const starter = world.properties.starter;
    const totals = expectedTotals('scoped');
    for (const path of LIST_PATHS) {
      const body = await all(path, {}, 'scoped');
      expect(body.total, path).toBe(totals[path]);
      expect(body.total, path).toBeGreaterThan(0);
    }
    const properties = await all<{ id: string }>('/v1/properties', {}, 'scoped');
    expect(properties.data.map((p) => p.id)).toEqual([starter.id]);
    const responses = await all<ResponseRow>('/v1/responses', {}, 'scoped');
    expect(new Set(responses.data.map((r) => r.property.id))).toEqual(new Set([starter.id]));
    const prompts = await all<{ id: string }>('/v1/prompts', {}, 'scoped');
    expect(prompts.data.map((p) => p.id).sort()).toEqual([...starter.promptIds].sort());
    const tasks = await all<{ id: string }>('/v1/tasks', {}, 'scoped');
    expect(tasks.data.map((t) => t.id)).toEqual(expectedTasks('scoped').map((t) => t.id));
    expect(tasks.data.map((t) => t.id)).toContain(extraTasks.starter.id);
    const visibility = await all<{ propertyId: string }>('/v1/visibility', {}, 'scoped');
    expect(new Set(visibility.data.map((v) => v.propertyId))).toEqual(new Set([starter.id]));
    const competitors = await all<{ id: string }>('/v1/competitors', {}, 'scoped');
    expect(competitors.data.map((c) => c.id).sort()).toEqual([...starter.competitorIds].sort());
    const sources = await all<{ domain: string }>('/v1/sources', {}, 'scoped');
    expect(sources.data.map((s) => s.domain).sort()).toEqual(['docs.starter.example.com', 'wikipedia.org']);
    const urls = await all<{ url: string }>('/v1/sources/urls', {}, 'scoped');
    expect(urls.data.map((u) => u.url).sort()).toEqual(
      ['https://docs.starter.example.com/guide', 'https://www.wikipedia.org/wiki/Vendors'].sort(),
    );
  });

  it('[READ-9] a propertyId outside the scope answers 200 with an empty list, not an error', async () => {
    const cases: [KeyName, string][] = [
      ['scoped', world.properties.growth.id],
      ['scoped', world.properties.other.id],
      ['scoped', RANDOM_UUID],
      ['all', world.properties.other.id],
      ['all', RANDOM_UUID],
      ['teamB', world.properties.growth.id],
      ['teamB', world.properties.starter.id],
    ];
    for (const [key, propertyId] of cases) {
      for (const path of PROPERTY_FILTERED_PATHS) {
        expect(await list(path, { propertyId }, key), `${key} ${path} ${propertyId}`).toMatchObject({
          data: [],
          total: 0,
        });
      }
    }
  });

  it('[READ-9] the team B key never sees team A data, only its own property', async () => {
    const other = world.properties.other;
    const teamA = [world.properties.growth, world.properties.starter, world.properties.free, world.properties.lapsed];
    const teamAIds = teamA.map((p) => p.id);
    const teamAPrompts = teamA.flatMap((p) => p.promptIds);
    const totals = expectedTotals('teamB');
    for (const path of LIST_PATHS) expect((await all(path, {}, 'teamB')).total, path).toBe(totals[path]);

    const properties = await all<{ id: string }>('/v1/properties', {}, 'teamB');
    expect(properties.data.map((p) => p.id)).toEqual([other.id]);
    const responses = await all<ResponseRow>('/v1/responses', {}, 'teamB');
    for (const r of responses.data) {
      expect(r.property.id).toBe(other.id);
      expect(teamAPrompts).not.toContain(r.promptId);
    }
    const tasks = await all<{ id: string; propertyId: string }>('/v1/tasks', {}, 'teamB');
    expect(tasks.data.map((t) => t.id)).toEqual([extraTasks.other.id]);
    for (const path of ['/v1/prompts', '/v1/visibility', '/v1/competitors']) {
      for (const row of (await all<{ propertyId: string }>(path, {}, 'teamB')).data) {
        expect(teamAIds, path).not.toContain(row.propertyId);
      }
    }
    const sources = await all<{ domain: string }>('/v1/sources', {}, 'teamB');
    expect(sources.data.map((s) => s.domain).sort()).toEqual(['docs.other.example.com', 'wikipedia.org']);
    // And team A's keys never see team B's task.
    expect((await all<{ id: string }>('/v1/tasks')).data.map((t) => t.id)).not.toContain(extraTasks.other.id);
  });
});
