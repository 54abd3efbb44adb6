import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  type AnswerFilter,
  answerKey,
  createReadApiHarness,
  DEFAULT_RANGE_DAYS,
  day,
  EXTRA_MODEL,
  endpointSuite,
  type KeyName,
  LONG_BACK,
  LONG_EXCERPT,
  LONG_TEXT,
  NOW,
  PROP_KEYS,
  type Query,
  type ResponseRow,
  type Row,
  rowKey,
  STALE_BACK,
  TODAY,
  WORLD_DAYS,
  WORLD_MODELS,
} from '../testing/index.ts';

// listResponses (READ-21..24) against this file's own endpoint world; expected rows come from the
// world's model in ../testing, never from an answer.

const { world, get, list, all, expectedAnswers, expectedUrls } = endpointSuite();

// ------------------------------------------------------------------ READ-21 responses: order and filters

describe('GET /v1/responses', () => {
  async function expectResponses(query: Record<string, string | boolean>, filter: AnswerFilter, key: KeyName = 'all') {
    const body = await all<ResponseRow>('/v1/responses', query, key);
    const expected = expectedAnswers(key, filter);
    expect(body.total, JSON.stringify(query)).toBe(expected.length);
    expect(body.data.map(rowKey).sort()).toEqual(expected.map(answerKey).sort());
    return body.data;
  }

  it('[READ-21] lists newest date first, ties ordered by id', async () => {
    const body = await all<ResponseRow>('/v1/responses', { from: day(WORLD_DAYS - 1) });
    expect(body.total).toBe(expectedAnswers('all', { range: { from: day(WORLD_DAYS - 1), to: TODAY } }).length);
    for (let i = 1; i < body.data.length; i++) {
      const [prev, next] = [body.data[i - 1]!, body.data[i]!];
      expect(prev.date >= next.date, `${prev.date} before ${next.date}`).toBe(true);
      if (prev.date === next.date) expect(prev.id < next.id, 'ties by id').toBe(true);
    }
    expect(body.data[0]!.date).toBe(TODAY);
  });

  it('[READ-21] pages of limit=7 concatenate to the single page of limit=1000 (stable order)', async () => {
    const whole = await all<ResponseRow>('/v1/responses');
    const pages: ResponseRow[] = [];
    for (let offset = 0; offset < whole.total; offset += 7) {
      const page = await list<ResponseRow>('/v1/responses', { limit: 7, offset });
      expect(page.total).toBe(whole.total);
      pages.push(...page.data);
    }
    expect(pages).toEqual(whole.data);
    expect(new Set(pages.map((r) => r.id)).size).toBe(whole.total);
  });

  it('[READ-21] filters by propertyId', async () => {
    for (const prop of ['growth', 'starter'] as const) {
      const id = world.properties[prop].id;
      const rows = await expectResponses({ propertyId: id }, { propertyId: id });
      expect(rows.every((r) => r.property.id === id)).toBe(true);
    }
  });

  it('[READ-21] filters by promptId', async () => {
    for (const promptId of [...world.properties.growth.promptIds, ...world.properties.starter.promptIds]) {
      const rows = await expectResponses({ promptId }, { promptId });
      expect(rows.length).toBe(DEFAULT_RANGE_DAYS * WORLD_MODELS.length);
      expect(rows.every((r) => r.promptId === promptId)).toBe(true);
    }
    expect(await list('/v1/responses', { promptId: world.properties.other.promptIds[0] })).toMatchObject({
      data: [],
      total: 0,
    });
  });

  it('[READ-21] filters by model', async () => {
    for (const model of WORLD_MODELS) {
      const rows = await expectResponses({ model }, { model });
      expect(rows.every((r) => r.model === model)).toBe(true);
    }
    expect(await list('/v1/responses', { model: 'gemini' })).toMatchObject({ data: [], total: 0 });
  });

  it('[READ-21] mentioned=true lists only hits, mentioned=false only misses', async () => {
    const hits = await expectResponses({ mentioned: 'true' }, { mentioned: true });
    const misses = await expectResponses({ mentioned: 'false' }, { mentioned: false });
    expect(hits.every((r) => r.mentioned)).toBe(true);
    expect(misses.every((r) => !r.mentioned)).toBe(true);
    expect(hits.length + misses.length).toBe(expectedAnswers('all').length);
    expect(hits.length).toBeGreaterThan(0);
    expect(misses.length).toBeGreaterThan(0);
  });

  it('[READ-21] filters by from and to', async () => {
    const range = { from: day(20), to: day(15) };
    const rows = await expectResponses(range, { range });
    expect(rows.every((r) => r.date >= range.from && r.date <= range.to)).toBe(true);
    await expectResponses({ from: day(4) }, { range: { from: day(4), to: TODAY } });
    await expectResponses({ to: day(4) }, { range: { from: day(4 + DEFAULT_RANGE_DAYS - 1), to: day(4) } });
  });

  it('[READ-21] combines every filter', async () => {
    const growth = world.properties.growth;
    const range = { from: day(9), to: day(2) };
    const query = {
      propertyId: growth.id,
      promptId: growth.promptIds[1],
      model: 'perplexity',
      mentioned: 'true',
      ...range,
    };
    const rows = await expectResponses(query, {
      propertyId: growth.id,
      promptId: growth.promptIds[1],
      model: 'perplexity',
      mentioned: true,
      range,
    });
    // Days 2, 4, 6 and 8 back are the even (mentioned) days in the range, one answer each.
    expect(rows.map((r) => r.date)).toEqual([day(2), day(4), day(6), day(8)]);
    await expectResponses(
      { propertyId: growth.id, model: 'chatgpt', mentioned: 'false', ...range },
      { propertyId: growth.id, model: 'chatgpt', mentioned: false, range },
    );
    // A prompt of another property than the propertyId filter matches nothing.
    expect(
      await list('/v1/responses', { propertyId: growth.id, promptId: world.properties.starter.promptIds[0] }),
    ).toMatchObject({ data: [], total: 0 });
  });

  it('[READ-21] with the answer cache on, a filter value that spells another query never shares its answer', async () => {
    // A replica with the production-like answer cache: the filters must still mean exactly what
    // was asked, whatever characters a value contains.
    const cached = createReadApiHarness({ now: NOW, answerCacheTtlMs: 60_000 });
    const ask = (path: string, query: Record<string, string | number>) =>
      request(cached.app).get(path).query(query).set('Authorization', `Bearer ${world.keys.all}`);
    try {
      // A model is an identifier, so this one is refused outright; the real query still answers.
      const forged = await ask('/v1/responses', { model: 'chatgpt&offset=0' });
      expect(forged.status).toBe(400);
      expect(forged.body.error.code).toBe('INVALID_PARAM');
      const real = await ask('/v1/responses', { model: 'chatgpt', offset: 0 });
      expect.soft(real.body.total).toBe(expectedAnswers('all', { model: 'chatgpt' }).length);

      const forgedUrls = await ask('/v1/sources/urls', { domain: 'wikipedia.org&model=chatgpt' });
      expect(forgedUrls.body).toMatchObject({ data: [], total: 0 });
      const realUrls = await ask('/v1/sources/urls', { domain: 'wikipedia.org', model: 'chatgpt' });
      expect.soft(realUrls.body.total).toBe(expectedUrls('all', { domain: 'wikipedia.org', model: 'chatgpt' }).length);
    } finally {
      await cached.close();
    }
  });

  it('[READ-22] list rows carry an excerpt of at most 300 characters and never text', async () => {
    const ranges: Query[] = [{}, { from: day(STALE_BACK), to: day(LONG_BACK) }];
    for (const range of ranges) {
      const body = await all<Row>('/v1/responses', range);
      expect(body.data.length).toBeGreaterThan(0);
      for (const row of body.data) {
        expect(row).not.toHaveProperty('text');
        expect(typeof row.excerpt).toBe('string');
        expect((row.excerpt as string).length).toBeLessThanOrEqual(300);
      }
    }
    const long = (await all<Row>('/v1/responses', { from: day(LONG_BACK), to: day(LONG_BACK) })).data;
    expect(long).toHaveLength(1);
    expect(long[0]!.excerpt).toBe(LONG_EXCERPT);
    expect(LONG_TEXT.length).toBeGreaterThan(300);
  });

  it('[READ-22] the excerpt is plain text (no markdown markers), the detail keeps the markdown', async () => {
    const rows = (await all<ResponseRow>('/v1/responses', { mentioned: 'true', limit: 20 })).data;
    for (const row of rows) {
      expect(row.excerpt).not.toMatch(/[#*]/);
      const detail = await get(`/v1/responses/${row.id}`);
      expect(detail.body.data.text).toMatch(/^# Answer/);
      expect(detail.body.data.text).toContain(`**${row.matchedTerm}**`);
    }
  });

  it('[READ-23] unmentioned rows have matchedTerm, position and sentiment null; mentioned ones non-null', async () => {
    const range = { from: day(STALE_BACK), to: TODAY };
    const body = await all<ResponseRow>('/v1/responses', range);
    const expected = new Map(expectedAnswers('all', { range }).map((a) => [answerKey(a), a]));
    expect(body.total).toBe(expected.size);
    let hits = 0;
    let misses = 0;
    for (const row of body.data) {
      const truth = expected.get(rowKey(row))!;
      expect(row.mentioned).toBe(truth.mentioned);
      if (row.mentioned) {
        hits++;
        expect(row.matchedTerm).not.toBeNull();
        expect(row.position).not.toBeNull();
        expect(row.sentiment).not.toBeNull();
      } else {
        misses++;
        expect([row.matchedTerm, row.position, row.sentiment]).toEqual([null, null, null]);
      }
      expect({ matchedTerm: row.matchedTerm, position: row.position, sentiment: row.sentiment }).toEqual({
        matchedTerm: truth.matchedTerm,
        position: truth.position,
        sentiment: truth.sentiment,
      });
    }
    expect(hits).toBeGreaterThan(0);
    expect(misses).toBeGreaterThan(0);
  });

  it('[READ-23] a miss stored with stale mention details still answers nulls (list and detail)', async () => {
    const rows = (await all<ResponseRow>('/v1/responses', { from: day(STALE_BACK), to: day(STALE_BACK) })).data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mentioned: false, matchedTerm: null, position: null, sentiment: null });
    const detail = await get(`/v1/responses/${rows[0]!.id}`);
    expect(detail.body.data).toMatchObject({ mentioned: false, matchedTerm: null, position: null, sentiment: null });
  });

  it('[READ-24] every response promptId is an id on /v1/prompts, and the prompt text matches', async () => {
    for (const key of ['all', 'scoped', 'teamB'] as const) {
      const prompts = await all<{ id: string; text: string }>('/v1/prompts', {}, key);
      const texts = new Map(prompts.data.map((p) => [p.id, p.text]));
      const responses = await all<ResponseRow>('/v1/responses', { from: day(STALE_BACK) }, key);
      expect(responses.data.length).toBeGreaterThan(0);
      for (const r of responses.data) {
        expect(texts.has(r.promptId), `${key} ${r.promptId}`).toBe(true);
        expect(r.prompt).toBe(texts.get(r.promptId));
      }
    }
  });

  it('[READ-24] every model value of a response works as the model filter', async () => {
    const range = { from: day(STALE_BACK), to: TODAY };
    const rows = (await all<ResponseRow>('/v1/responses', range)).data;
    const models = [...new Set(rows.map((r) => r.model))].sort();
    expect(models).toEqual([...new Set([...WORLD_MODELS, EXTRA_MODEL])].sort());
    for (const model of models) {
      const filtered = await all<ResponseRow>('/v1/responses', { ...range, model });
      expect(filtered.total, model).toBe(rows.filter((r) => r.model === model).length);
      expect(filtered.data.map((r) => r.id).sort()).toEqual(
        rows
          .filter((r) => r.model === model)
          .map((r) => r.id)
          .sort(),
      );
    }
  });

  it('[READ-21] rows carry the values of the seed (prompt, property, sourceUrls in order)', async () => {
    const body = await all<ResponseRow>('/v1/responses');
    const expected = new Map(expectedAnswers('all').map((a) => [answerKey(a), a]));
    const promptText = new Map<string, string>();
    for (const prop of PROP_KEYS) {
      const [first, second] = world.properties[prop].promptIds;
      promptText.set(first, `best tools (${prop})`);
      promptText.set(second, `compare vendors (${prop})`);
    }
    for (const row of body.data) {
      const truth = expected.get(rowKey(row))!;
      expect(truth, rowKey(row)).toBeDefined();
      expect(row.sourceUrls).toEqual(truth.urls);
      expect(row.prompt).toBe(promptText.get(row.promptId));
      expect(row.property).toEqual({ id: truth.propertyId, name: world.properties[truth.prop].name });
    }
  });
});
