import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerCacheKey, createAnswerCache } from './answer-cache.ts';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('answer cache', () => {
  it('runs concurrent misses of one entry once and serves the same bytes while fresh', async () => {
    let clock = 0;
    const cache = createAnswerCache({ ttlMs: 1000, maxBytes: 1024 * 1024, now: () => clock });
    let runs = 0;
    const compute = async () => {
      runs++;
      await sleep(20);
      return { data: [runs], total: 1 };
    };
    const [a, b] = await Promise.all([cache.answer('k', compute), cache.answer('k', compute)]);
    expect(runs).toBe(1);
    expect(a?.body.toString()).toBe('{"data":[1],"total":1}');
    expect(b?.body.toString()).toBe(a?.body.toString());
    clock = 999;
    expect((await cache.answer('k', compute))?.body.toString()).toBe('{"data":[1],"total":1}');
    expect(runs).toBe(1);
  });

  it('serves a stale answer while one request refreshes it, and never one older than twice the TTL', async () => {
    let clock = 0;
    const cache = createAnswerCache({ ttlMs: 1000, maxBytes: 1024 * 1024, now: () => clock });
    let runs = 0;
    const compute = async () => {
      runs++;
      await sleep(20);
      return runs;
    };
    await cache.answer('k', compute);
    clock = 1500; // stale: answered at once, refreshed once in the background
    const stale = await Promise.all([cache.answer('k', compute), cache.answer('k', compute)]);
    expect(stale.map((answer) => String(answer?.body))).toEqual(['1', '1']);
    // The refresh lands in the background; until it does the stale answer stands, and no
    // request starts a second refresh.
    let latest = '1';
    for (let waited = 0; latest === '1' && waited < 2000; waited += 10) {
      await sleep(10);
      latest = String((await cache.answer('k', compute))?.body);
    }
    expect(latest).toBe('2');
    expect(runs).toBe(2);
    clock = 1500 + 2000; // twice the TTL after the refresh: too old to serve, recomputed first
    expect(String((await cache.answer('k', compute))?.body)).toBe('3');
  });

  it('with a TTL of 0 computes every time, and answers null for a miss (404)', async () => {
    const cache = createAnswerCache({ ttlMs: 0, maxBytes: 1024 });
    let runs = 0;
    await cache.answer('k', async () => ++runs);
    await cache.answer('k', async () => ++runs);
    expect(runs).toBe(2);
    expect(await cache.answer('missing', async () => null)).toBeNull();
  });

  it('does not keep a failed computation', async () => {
    const cache = createAnswerCache({ ttlMs: 10_000, maxBytes: 1024 });
    await expect(cache.answer('k', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect((await cache.answer('k', async () => ({ ok: true })))?.body.toString()).toBe('{"ok":true}');
  });

  it('keys on everything the rows depend on, independent of parameter order', () => {
    const base = {
      operationId: 'listResponses',
      propertyIds: ['a', 'b'],
      range: { from: '2026-01-01', to: '2026-01-30' },
    };
    expect(answerCacheKey({ ...base, query: { limit: 5, model: 'claude' } })).toBe(
      answerCacheKey({ ...base, query: { model: 'claude', limit: 5 } }),
    );
    const keys = new Set([
      answerCacheKey({ ...base, query: {} }),
      answerCacheKey({ ...base, propertyIds: ['a'], query: {} }),
      answerCacheKey({ ...base, operationId: 'getVisibility', query: {} }),
      answerCacheKey({ ...base, range: { from: '2026-01-02', to: '2026-01-30' }, query: {} }),
      answerCacheKey({ ...base, query: { offset: 1 } }),
      answerCacheKey({ ...base, query: {}, id: 'x' }),
    ]);
    expect(keys.size).toBe(6);
  });
});

describe('answer cache behind /v1', () => {
  const harness = createReadApiHarness({ now: NOW, answerCacheTtlMs: 60_000 });
  let world: ReadWorld;
  beforeAll(async () => {
    world = await seedReadWorld(harness.db, NOW);
  }, 60_000);
  afterAll(() => harness.close());

  const get = (path: string, key: string) => request(harness.app).get(path).set('Authorization', `Bearer ${key}`);

  it('[READ-9] keys with different scopes never share a cached answer', async () => {
    const all = await get('/v1/properties', world.keys.all);
    const scoped = await get('/v1/properties', world.keys.scoped);
    const otherTeam = await get('/v1/properties', world.keys.teamB);
    expect(all.body.total).toBe(2);
    expect(scoped.body.data.map((p: { id: string }) => p.id)).toEqual([world.properties.starter.id]);
    expect(otherTeam.body.data.map((p: { id: string }) => p.id)).toEqual([world.properties.other.id]);
  });

  it('keys with the same scope share an answer, while a different query reads fresh rows', async () => {
    const before = await get('/v1/prompts', world.keys.all);
    await harness.db.prompt.create({ data: { propertyId: world.properties.growth.id, text: 'cached-later prompt' } });
    const sameScope = await get('/v1/prompts', world.keys.write);
    expect(sameScope.body).toEqual(before.body);
    const other = await get('/v1/prompts?limit=99', world.keys.all);
    expect(other.body.total).toBe(before.body.total + 1);
  });
});
