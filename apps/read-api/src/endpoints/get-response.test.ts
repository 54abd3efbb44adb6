import { describe, expect, it } from 'vitest';
import {
  answerKey,
  day,
  EXTRA_MODEL,
  endpointSuite,
  type KeyName,
  LONG_BACK,
  LONG_TEXT,
  type Query,
  RANDOM_UUID,
  type ResponseRow,
  rowKey,
  STALE_BACK,
  TODAY,
} from '../testing/index.ts';

// getResponse (READ-7, READ-8, READ-9, READ-25, READ-26) against this file's own endpoint world.

const { harness, world, get, list, all, expectedAnswers } = endpointSuite();

describe('GET /v1/responses/{id}', () => {
  it('[READ-7] the detail endpoint answers {data: {...}}', async () => {
    const page = await list<ResponseRow>('/v1/responses', { limit: 1 });
    const res = await get(`/v1/responses/${page.data[0]!.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(typeof res.body.data).toBe('object');
    expect(Array.isArray(res.body.data)).toBe(false);
    expect(res.body.data.id).toBe(page.data[0]!.id);
  });

  it('[READ-8] the detail of a free or lapsed property\u2019s response is 404 NOT_FOUND', async () => {
    for (const prop of ['free', 'lapsed'] as const) {
      const stored = await harness.db.response.findFirstOrThrow({
        where: { propertyId: world.properties[prop].id },
      });
      for (const key of ['all', 'write', 'empty'] as const) {
        const res = await get(`/v1/responses/${stored.id}`, key);
        expect(res.status, `${prop} ${key}`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
  });

  it('[READ-9] the detail of another team\u2019s or an out-of-scope response is 404 NOT_FOUND', async () => {
    const teamAResponse = (await list<ResponseRow>('/v1/responses', { limit: 1 }, 'all')).data[0]!;
    const growthResponse = (
      await list<ResponseRow>('/v1/responses', { limit: 1, propertyId: world.properties.growth.id }, 'all')
    ).data[0]!;
    const teamBResponse = (await list<ResponseRow>('/v1/responses', { limit: 1 }, 'teamB')).data[0]!;
    const cases: [KeyName, string][] = [
      ['teamB', teamAResponse.id],
      ['all', teamBResponse.id],
      ['write', teamBResponse.id],
      ['scoped', growthResponse.id],
      ['scoped', teamBResponse.id],
    ];
    for (const [key, id] of cases) {
      const res = await get(`/v1/responses/${id}`, key);
      expect(res.status, `${key} ${id}`).toBe(404);
      expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
    // The same ids are readable by the keys whose scope holds them.
    expect((await get(`/v1/responses/${teamBResponse.id}`, 'teamB')).status).toBe(200);
    expect((await get(`/v1/responses/${growthResponse.id}`, 'all')).status).toBe(200);
  });

  it('[READ-25] the detail equals the list row plus text (markdown)', async () => {
    const range = { from: day(STALE_BACK), to: TODAY };
    const rows = (await all<ResponseRow>('/v1/responses', range)).data;
    const texts = new Map(expectedAnswers('all', { range }).map((a) => [answerKey(a), a.text]));
    const sample = rows.filter((_, i) => i % 5 === 0 || rows[i]!.model === EXTRA_MODEL);
    expect(sample.some((r) => r.mentioned) && sample.some((r) => !r.mentioned)).toBe(true);
    for (const row of sample) {
      const res = await get(`/v1/responses/${row.id}`);
      expect(res.status).toBe(200);
      const { text, ...rest } = res.body.data;
      expect(rest).toEqual(row);
      expect(text).toBe(texts.get(rowKey(row)));
    }
  });

  it('[READ-25] the full text is served even when longer than the 300-character excerpt', async () => {
    const [row] = (await all<ResponseRow>('/v1/responses', { from: day(LONG_BACK), to: day(LONG_BACK) })).data;
    const res = await get(`/v1/responses/${row!.id}`);
    expect(res.body.data.text).toBe(LONG_TEXT);
    expect(res.body.data.excerpt).toBe(row!.excerpt);
  });

  it('[READ-26] an id absent from the scope, a random UUID or a non-UUID answers 404 NOT_FOUND', async () => {
    const ids = [RANDOM_UUID, 'not-a-uuid', '123', `${RANDOM_UUID}x`, 'null', '%20'];
    for (const id of ids) {
      const res = await get(`/v1/responses/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
    const starterRow = (
      await list<ResponseRow>('/v1/responses', { propertyId: world.properties.starter.id, limit: 1 }, 'scoped')
    ).data[0]!;
    for (const key of ['teamB', 'empty'] as const) {
      const res = await get(`/v1/responses/${starterRow.id}`, key);
      expect(res.status, key).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('[READ-26] the detail reads no query parameters and never answers 400', async () => {
    const row = (await list<ResponseRow>('/v1/responses', { limit: 1 })).data[0]!;
    const plain = await get(`/v1/responses/${row.id}`);
    expect(plain.status).toBe(200);
    const noisy: Query[] = [
      { limit: 'abc', offset: '-1' },
      { from: 'yesterday', to: '2026-02-30', mentioned: 'maybe' },
      { propertyId: world.properties.other.id, model: 'gemini' },
      { propertyId: 'not-a-uuid', promptId: '1' },
      { limit: 5000 },
    ];
    for (const query of noisy) {
      const res = await get(`/v1/responses/${row.id}`, 'all', query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(res.body).toEqual(plain.body);
    }
    // A 404 stays a 404 with a malformed query, never a 400.
    const missing = await get(`/v1/responses/${RANDOM_UUID}`, 'all', { limit: 'abc' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });
});
