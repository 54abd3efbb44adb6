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
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createReadApiHarness,
  type ReadWorld,
  seedReadWorld,
  WORLD_DAYS,
  WORLD_MODELS,
  worldAnswer,
} from './testing/index.ts';

// Endpoint behaviour of the read API (/v1), rule by rule (READ-6..9, READ-20..29), against the
// seeded read world. Every expected value is computed from the world's documented layout by the
// small model below, never copied from an answer.

const NOW = new Date('2026-03-15T12:00:00.000Z');
const DEFAULT_RANGE_DAYS = 30;

/** yyyy-MM-dd of the UTC day `back` days before the UTC day of `instant` (independent of @vt/db). */
function dayBefore(instant: Date, back: number): string {
  const utc = Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate() - back);
  return new Date(utc).toISOString().slice(0, 10);
}
const day = (back: number) => dayBefore(NOW, back);
const TODAY = day(0);
const RANDOM_UUID = '6f1c2b4e-9d3a-4c5b-8e7f-0a1b2c3d4e5f';

const harness = createReadApiHarness({ now: NOW });
let world: ReadWorld;

// ------------------------------------------------------------------ the world, as a model

type PropKey = 'growth' | 'starter' | 'free' | 'lapsed' | 'other';
const PROP_KEYS: PropKey[] = ['growth', 'starter', 'free', 'lapsed', 'other'];
type KeyName = 'all' | 'write' | 'scoped' | 'empty' | 'teamB';
/** What each key may read: active paid properties of its team, within its scope. */
const SCOPES: Record<KeyName, PropKey[]> = {
  all: ['growth', 'starter'],
  write: ['growth', 'starter'],
  scoped: ['starter'],
  empty: [],
  teamB: ['other'],
};

interface Answer {
  prop: PropKey;
  propertyId: string;
  promptId: string;
  model: string;
  back: number;
  date: string;
  mentioned: boolean;
  matchedTerm: string | null;
  position: number | null;
  sentiment: number | null;
  text: string;
  urls: string[];
  rivalNamed: boolean;
}

/** Extra answers this file adds on growth, 45 and 46 days back (outside every other range used here). */
const LONG_BACK = 45;
const STALE_BACK = 46;
const EXTRA_MODEL = 'claude';
const LONG_TEXT = `# Long answer\n\n${'**Growth** is described at length here. '.repeat(30)}\n\n- a list item\n- another`;
const LONG_EXCERPT = 'x'.repeat(300);

let answers: Answer[] = [];

function buildAnswers(): Answer[] {
  const rows: Answer[] = [];
  for (const prop of PROP_KEYS) {
    const property = world.properties[prop];
    for (let back = 0; back < WORLD_DAYS; back++) {
      const date = day(back);
      for (const promptId of property.promptIds) {
        for (const model of WORLD_MODELS) {
          rows.push({
            prop,
            propertyId: property.id,
            promptId,
            model,
            back,
            date,
            ...worldAnswer(prop, back, date, model),
          });
        }
      }
    }
  }
  const growth = world.properties.growth;
  rows.push(
    {
      prop: 'growth',
      propertyId: growth.id,
      promptId: growth.promptIds[0],
      model: EXTRA_MODEL,
      back: LONG_BACK,
      date: day(LONG_BACK),
      mentioned: true,
      matchedTerm: 'growth',
      position: 3,
      sentiment: -0.25,
      text: LONG_TEXT,
      urls: [],
      rivalNamed: false,
    },
    {
      // Stored with stale mention details although not mentioned: the API must still send nulls.
      prop: 'growth',
      propertyId: growth.id,
      promptId: growth.promptIds[0],
      model: EXTRA_MODEL,
      back: STALE_BACK,
      date: day(STALE_BACK),
      mentioned: false,
      matchedTerm: null,
      position: null,
      sentiment: null,
      text: 'Nothing about the brand.',
      urls: [],
      rivalNamed: false,
    },
  );
  return rows;
}

interface Range {
  from: string;
  to: string;
}
const DEFAULT_RANGE: Range = { from: day(DEFAULT_RANGE_DAYS - 1), to: TODAY };

interface AnswerFilter {
  propertyId?: string;
  promptId?: string;
  model?: string;
  mentioned?: boolean;
  range?: Range;
}

function expectedAnswers(key: KeyName, filter: AnswerFilter = {}): Answer[] {
  const range = filter.range ?? DEFAULT_RANGE;
  return answers.filter(
    (a) =>
      SCOPES[key].includes(a.prop) &&
      a.date >= range.from &&
      a.date <= range.to &&
      (filter.propertyId === undefined || a.propertyId === filter.propertyId) &&
      (filter.promptId === undefined || a.promptId === filter.promptId) &&
      (filter.model === undefined || a.model === filter.model) &&
      (filter.mentioned === undefined || a.mentioned === filter.mentioned),
  );
}

const answerKey = (a: { propertyId: string; promptId: string; model: string; date: string }) =>
  `${a.date}|${a.propertyId}|${a.promptId}|${a.model}`;
const rowKey = (r: ResponseRow) =>
  answerKey({ propertyId: r.property.id, promptId: r.promptId, model: r.model, date: r.date });

function expectedVisibility(key: KeyName, filter: AnswerFilter = {}) {
  const groups = new Map<string, Answer[]>();
  for (const a of expectedAnswers(key, filter)) {
    const k = `${a.date}|${a.propertyId}|${a.model}`;
    groups.set(k, [...(groups.get(k) ?? []), a]);
  }
  const mean = (values: number[]) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : null);
  return [...groups.values()].map((group) => {
    const hits = group.filter((a) => a.mentioned);
    return {
      date: group[0]!.date,
      propertyId: group[0]!.propertyId,
      model: group[0]!.model,
      responses: group.length,
      mentions: hits.length,
      visibilityRate: hits.length / group.length,
      averagePosition: mean(hits.map((a) => a.position!)),
      averageSentiment: mean(hits.map((a) => a.sentiment!)),
    };
  });
}

function expectedCompetitors(key: KeyName, filter: { propertyId?: string; range?: Range } = {}) {
  const props = SCOPES[key].filter(
    (p) => filter.propertyId === undefined || world.properties[p].id === filter.propertyId,
  );
  return props.flatMap((prop) => {
    const inRange = expectedAnswers(key, { propertyId: world.properties[prop].id, range: filter.range });
    const brand = inRange.filter((a) => a.mentioned).length;
    const rival = inRange.filter((a) => a.rivalNamed).length;
    const quiet = 0;
    const voices = brand + rival + quiet;
    const share = (n: number) => (voices > 0 ? n / voices : 0);
    const [rivalId, quietId] = world.properties[prop].competitorIds;
    const brandShare = { mentions: brand, shareOfVoice: share(brand) };
    return [
      {
        id: rivalId,
        propertyId: world.properties[prop].id,
        name: 'Rival',
        domain: 'rival.test',
        mentions: rival,
        shareOfVoice: share(rival),
        brand: brandShare,
      },
      {
        id: quietId,
        propertyId: world.properties[prop].id,
        name: 'Quiet',
        domain: 'quiet.test',
        mentions: quiet,
        shareOfVoice: share(quiet),
        brand: brandShare,
      },
    ];
  });
}

const domainOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, '');

function citations(key: KeyName, filter: AnswerFilter) {
  return expectedAnswers(key, filter).flatMap((a) => a.urls.map((url) => ({ url, domain: domainOf(url), answer: a })));
}

function expectedSources(key: KeyName, filter: AnswerFilter = {}) {
  const all = citations(key, filter);
  const domains = [...new Set(all.map((c) => c.domain))];
  return domains.map((domain) => {
    const cited = all.filter((c) => c.domain === domain);
    return {
      domain,
      citations: cited.length,
      responses: new Set(cited.map((c) => c.answer)).size,
      share: cited.length / all.length,
    };
  });
}

function expectedUrls(key: KeyName, filter: AnswerFilter & { domain?: string } = {}) {
  const all = citations(key, filter).filter((c) => filter.domain === undefined || c.domain === filter.domain);
  const urls = [...new Set(all.map((c) => c.url))];
  return urls.map((url) => {
    const cited = all.filter((c) => c.url === url);
    const dates = cited.map((c) => c.answer.date).sort();
    return {
      url,
      domain: domainOf(url),
      citations: cited.length,
      responses: new Set(cited.map((c) => c.answer)).size,
      firstSeen: dates[0],
      lastSeen: dates[dates.length - 1],
    };
  });
}

/** Tasks this file adds beside the world's growth tasks. */
let extraTasks: Record<'starter' | 'tieA' | 'tieB' | 'free' | 'lapsed' | 'other', { id: string }>;
/** Midnight UTC of the fixture's today, in ms: the world's timestamps are laid out from it. */
const DAY0_MS = Date.parse(`${TODAY}T00:00:00.000Z`);
const hoursBefore = (hours: number) => new Date(DAY0_MS - hours * 3_600_000);

// ------------------------------------------------------------------ HTTP helpers

type ResponseRow = z.infer<typeof responseSchema>;
type Row = Record<string, unknown>;
type Query = Record<string, string | number | boolean>;
interface ListBody<T = Row> {
  data: T[];
  total: number;
}

function get(path: string, key: KeyName | 'revoked' = 'all', query: Record<string, string | number | boolean> = {}) {
  return request(harness.app).get(path).query(query).set('Authorization', `Bearer ${world.keys[key]}`);
}

async function list<T = Row>(
  path: string,
  query: Record<string, string | number | boolean> = {},
  key: KeyName = 'all',
): Promise<ListBody<T>> {
  const res = await get(path, key, query);
  expect(res.status, `${path} ${JSON.stringify(query)}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(['data', 'total']);
  expect(Array.isArray(res.body.data)).toBe(true);
  expect(Number.isInteger(res.body.total)).toBe(true);
  return res.body as ListBody<T>;
}

/** Every row of a list, in one page of the maximum size. */
const all = <T = Row>(path: string, query: Record<string, string | number | boolean> = {}, key: KeyName = 'all') =>
  list<T>(path, { limit: 1000, ...query }, key);

/**
 * A strict copy of a contracts schema: no key beyond the schema's, at any depth (the published
 * schemas strip unknown keys, which would hide an extra field).
 */
function strictDeep(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, strictDeep(v)]),
    );
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodArray) return z.array(strictDeep(schema.element as z.ZodType));
  if (schema instanceof z.ZodNullable) return strictDeep(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return strictDeep(schema.unwrap() as z.ZodType).optional();
  return schema;
}

function expectRowsMatch(schema: z.ZodType, rows: unknown[]) {
  const strict = strictDeep(schema);
  for (const row of rows) {
    const parsed = strict.safeParse(row);
    expect(parsed.success, `${JSON.stringify(row)}: ${parsed.error?.message}`).toBe(true);
  }
}

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
const sortBy = <T>(rows: T[], key: (row: T) => string) => [...rows].sort(byKey(key));

const LIST_PATHS = [
  '/v1/responses',
  '/v1/tasks',
  '/v1/properties',
  '/v1/prompts',
  '/v1/visibility',
  '/v1/competitors',
  '/v1/sources',
  '/v1/sources/urls',
] as const;
const PROPERTY_FILTERED_PATHS = LIST_PATHS.filter((p) => p !== '/v1/properties');

// ------------------------------------------------------------------ setup

beforeAll(async () => {
  world = await seedReadWorld(harness.db, NOW);
  const db = harness.db;
  const growth = world.properties.growth;

  // Two answers outside the fixture's 40 days: a long markdown one (detail text vs excerpt), and a
  // miss stored with stale mention details.
  await db.response.create({
    data: {
      propertyId: growth.id,
      promptId: growth.promptIds[0],
      model: EXTRA_MODEL,
      day: new Date(`${day(LONG_BACK)}T00:00:00.000Z`),
      mentioned: true,
      matchedTerm: 'growth',
      position: 3,
      sentiment: -0.25,
      excerpt: LONG_EXCERPT,
      text: LONG_TEXT,
    },
  });
  await db.response.create({
    data: {
      propertyId: growth.id,
      promptId: growth.promptIds[0],
      model: EXTRA_MODEL,
      day: new Date(`${day(STALE_BACK)}T00:00:00.000Z`),
      mentioned: false,
      matchedTerm: 'growth',
      position: 7,
      sentiment: 0.9,
      excerpt: 'Nothing about the brand.',
      text: 'Nothing about the brand.',
    },
  });

  // Tasks on the other properties: one readable (starter), three that must never be read by team A.
  const task = (propertyId: string, title: string, hours: number, extra: Record<string, unknown> = {}) =>
    db.task.create({ data: { propertyId, title, createdAt: hoursBefore(hours), ...extra } });
  extraTasks = {
    starter: await task(world.properties.starter.id, 'Starter backlog task', 1.5, {
      description: 'Starter work.',
      priority: 'urgent',
    }),
    // Two created at the same instant: the order between them is by id, stable across pages.
    tieA: await task(world.properties.starter.id, 'Tie A', 6, { status: 'canceled', priority: 'medium' }),
    tieB: await task(world.properties.starter.id, 'Tie B', 6, { status: 'todo' }),
    free: await task(world.properties.free.id, 'Free task', 0.5, { status: 'todo' }),
    lapsed: await task(world.properties.lapsed.id, 'Lapsed task', 0.25, { status: 'todo' }),
    other: await task(world.properties.other.id, 'Team B task', 0.75, { status: 'todo' }),
  };
  answers = buildAnswers();
}, 60_000);

afterEach(() => harness.setNow(NOW));
afterAll(() => harness.close());

/** Expected accepted tasks per key, built from the seed (the world's growth tasks plus this file's). */
function expectedTasks(key: KeyName) {
  const t = world.tasks;
  const growth = world.properties.growth.id;
  const rows = [
    { id: t.adHoc.id, propertyId: growth, createdAt: t.adHoc.createdAt, status: 'todo', prop: 'growth' },
    { id: t.step1.id, propertyId: growth, createdAt: t.step1.createdAt, status: 'in_progress', prop: 'growth' },
    { id: t.done.id, propertyId: growth, createdAt: t.done.createdAt, status: 'done', prop: 'growth' },
    {
      id: extraTasks.starter.id,
      propertyId: world.properties.starter.id,
      createdAt: hoursBefore(1.5),
      status: 'backlog',
      prop: 'starter',
    },
    {
      id: extraTasks.tieA.id,
      propertyId: world.properties.starter.id,
      createdAt: hoursBefore(6),
      status: 'canceled',
      prop: 'starter',
    },
    {
      id: extraTasks.tieB.id,
      propertyId: world.properties.starter.id,
      createdAt: hoursBefore(6),
      status: 'todo',
      prop: 'starter',
    },
    {
      id: extraTasks.free.id,
      propertyId: world.properties.free.id,
      createdAt: hoursBefore(0.5),
      status: 'todo',
      prop: 'free',
    },
    {
      id: extraTasks.lapsed.id,
      propertyId: world.properties.lapsed.id,
      createdAt: hoursBefore(0.25),
      status: 'todo',
      prop: 'lapsed',
    },
    {
      id: extraTasks.other.id,
      propertyId: world.properties.other.id,
      createdAt: hoursBefore(0.75),
      status: 'todo',
      prop: 'other',
    },
  ];
  return rows
    .filter((r) => SCOPES[key].includes(r.prop as PropKey))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1));
}

/** The expected total of every list endpoint for a key, with no filter and the default range. */
function expectedTotals(key: KeyName): Record<(typeof LIST_PATHS)[number], number> {
  return {
    '/v1/responses': expectedAnswers(key).length,
    '/v1/tasks': expectedTasks(key).length,
    '/v1/properties': SCOPES[key].length,
    '/v1/prompts': SCOPES[key].length * 2,
    '/v1/visibility': expectedVisibility(key).length,
    '/v1/competitors': expectedCompetitors(key).length,
    '/v1/sources': expectedSources(key).length,
    '/v1/sources/urls': expectedUrls(key).length,
  };
}

// ------------------------------------------------------------------ READ-6 / READ-7 envelopes

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
      expect(past, path).toEqual({ data: [], total: totals[path] });
      const exactlyAtEnd = await list(path, { offset: totals[path], limit: 1 });
      expect(exactlyAtEnd, path).toEqual({ data: [], total: totals[path] });
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

  it('[READ-7] the detail endpoint answers {data: {...}}', async () => {
    const page = await list<ResponseRow>('/v1/responses', { limit: 1 });
    const res = await get(`/v1/responses/${page.data[0]!.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(typeof res.body.data).toBe('object');
    expect(Array.isArray(res.body.data)).toBe(false);
    expect(res.body.data.id).toBe(page.data[0]!.id);
  });
});

// ------------------------------------------------------------------ READ-8 paid properties only

describe('paid properties only', () => {
  it('[READ-8] /v1/properties lists only the paid, active properties (no free, no lapsed)', async () => {
    const body = await all<{ id: string }>('/v1/properties');
    const ids = body.data.map((p) => p.id).sort();
    expect(ids).toEqual([world.properties.growth.id, world.properties.starter.id].sort());
    expect(ids).not.toContain(world.properties.free.id);
    expect(ids).not.toContain(world.properties.lapsed.id);
  });

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
        expect(await list(path, { propertyId: world.properties[prop].id }), `${path} ${prop}`).toEqual({
          data: [],
          total: 0,
        });
      }
    }
  });

  it('[READ-8] promptId of a free or lapsed prompt gives an empty list (responses, visibility)', async () => {
    for (const prop of ['free', 'lapsed'] as const) {
      for (const path of ['/v1/responses', '/v1/visibility']) {
        expect(await list(path, { promptId: world.properties[prop].promptIds[0] }), `${path} ${prop}`).toEqual({
          data: [],
          total: 0,
        });
      }
    }
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

  it('[READ-8] the key scoped only to the free property sees empty lists everywhere', async () => {
    for (const path of LIST_PATHS) {
      expect(await list(path, {}, 'empty'), path).toEqual({ data: [], total: 0 });
      expect(await list(path, { propertyId: world.properties.free.id }, 'empty'), path).toEqual({
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
        expect(await list(path, { propertyId }, key), `${key} ${path} ${propertyId}`).toEqual({ data: [], total: 0 });
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
    expect(await list('/v1/responses', { promptId: world.properties.other.promptIds[0] })).toEqual({
      data: [],
      total: 0,
    });
  });

  it('[READ-21] filters by model', async () => {
    for (const model of WORLD_MODELS) {
      const rows = await expectResponses({ model }, { model });
      expect(rows.every((r) => r.model === model)).toBe(true);
    }
    expect(await list('/v1/responses', { model: 'gemini' })).toEqual({ data: [], total: 0 });
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
    ).toEqual({ data: [], total: 0 });
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
      expect(forgedUrls.body).toEqual({ data: [], total: 0 });
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

// ------------------------------------------------------------------ READ-25/26 detail

describe('GET /v1/responses/{id}', () => {
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

// ------------------------------------------------------------------ READ-27/28 tasks

describe('GET /v1/tasks', () => {
  interface TaskBody {
    id: string;
    title: string;
    description: string;
    status: string;
    priority: string | null;
    labels: { id: string; name: string; color: string | null }[];
    dueDate: string | null;
    assignee: { id: string; name: string } | null;
    propertyId: string;
    planId: string | null;
    createdAt: string;
    updatedAt: string;
  }

  it('[READ-27] lists accepted tasks only: proposed and declined plan steps never appear', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    const ids = tasks.data.map((t) => t.id);
    expect(ids).not.toContain(world.tasks.proposed.id);
    expect(ids).not.toContain(world.tasks.declined.id);
    expect(tasks.total).toBe(expectedTasks('all').length);
    // Both hidden steps are in status backlog: filtering on it still never shows them.
    for (const status of ['backlog', 'todo', 'in_progress', 'done', 'canceled']) {
      const filtered = await all<TaskBody>('/v1/tasks', { status });
      expect(filtered.data.map((t) => t.id)).not.toContain(world.tasks.proposed.id);
      expect(filtered.data.map((t) => t.id)).not.toContain(world.tasks.declined.id);
    }
    const growthOnly = await all<TaskBody>('/v1/tasks', { propertyId: world.properties.growth.id });
    expect(growthOnly.data.map((t) => t.id)).toEqual([world.tasks.adHoc.id, world.tasks.step1.id, world.tasks.done.id]);
  });

  it('[READ-27] newest created first', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    expect(tasks.data.map((t) => t.id)).toEqual(expectedTasks('all').map((t) => t.id));
    const created = tasks.data.map((t) => Date.parse(t.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    // Paging keeps the order.
    const paged: string[] = [];
    for (let offset = 0; offset < tasks.total; offset++) {
      paged.push(...(await list<TaskBody>('/v1/tasks', { limit: 1, offset })).data.map((t) => t.id));
    }
    expect(paged).toEqual(tasks.data.map((t) => t.id));
  });

  it('[READ-27] filters by propertyId and by status', async () => {
    for (const prop of ['growth', 'starter'] as const) {
      const propertyId = world.properties[prop].id;
      const filtered = await all<TaskBody>('/v1/tasks', { propertyId });
      expect(filtered.data.map((t) => t.id)).toEqual(
        expectedTasks('all')
          .filter((t) => t.propertyId === propertyId)
          .map((t) => t.id),
      );
    }
    for (const status of ['backlog', 'todo', 'in_progress', 'done', 'canceled']) {
      const filtered = await all<TaskBody>('/v1/tasks', { status });
      const expected = expectedTasks('all').filter((t) => t.status === status);
      expect(filtered.total, status).toBe(expected.length);
      expect(filtered.data.map((t) => t.id)).toEqual(expected.map((t) => t.id));
      expect(filtered.data.every((t) => t.status === status)).toBe(true);
    }
    const both = await all<TaskBody>('/v1/tasks', { propertyId: world.properties.growth.id, status: 'done' });
    expect(both.data.map((t) => t.id)).toEqual([world.tasks.done.id]);
    const none = await all<TaskBody>('/v1/tasks', { propertyId: world.properties.starter.id, status: 'done' });
    expect(none).toEqual({ data: [], total: 0 });
  });

  it('[READ-28] a title-only ad-hoc task: description "", priority null, no labels, no due date, unassigned, planId null', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    const adHoc = tasks.data.find((t) => t.id === world.tasks.adHoc.id)!;
    expect(adHoc).toEqual({
      id: world.tasks.adHoc.id,
      title: 'Title only',
      description: '',
      status: 'todo',
      priority: null,
      labels: [],
      dueDate: null,
      assignee: null,
      propertyId: world.properties.growth.id,
      planId: null,
      createdAt: world.tasks.adHoc.createdAt.toISOString(),
      updatedAt: world.tasks.adHoc.updatedAt.toISOString(),
    });
    const done = tasks.data.find((t) => t.id === world.tasks.done.id)!;
    expect(done).toMatchObject({ description: '', priority: 'low', status: 'done', planId: null, assignee: null });
    const starter = tasks.data.find((t) => t.id === extraTasks.starter.id)!;
    expect(starter).toMatchObject({
      description: 'Starter work.',
      priority: 'urgent',
      status: 'backlog',
      planId: null,
    });
  });

  it('[READ-28] a plan step: labels {id, name, color hex|null}, dueDate yyyy-MM-dd, assignee {id, name}, planId', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    const step = tasks.data.find((t) => t.id === world.tasks.step1.id)!;
    const { seo, content } = world.tasks.labels;
    expect(sortBy(step.labels, (l) => l.name)).toEqual(
      sortBy(
        [
          { id: seo.id, name: seo.name, color: seo.color },
          { id: content.id, name: content.name, color: content.color },
        ],
        (l) => l.name,
      ),
    );
    expect(step.labels.find((l) => l.name === 'content')?.color).toBeNull();
    expect(step.labels.find((l) => l.name === 'seo')?.color).toMatch(/^#[0-9a-fA-F]{6}$/);
    expect(step).toMatchObject({
      title: 'Publish a comparison page',
      description: 'Cover pricing and integrations.',
      status: 'in_progress',
      priority: 'high',
      dueDate: dayBefore(NOW, -7),
      assignee: { id: world.user.id, name: 'Ada Assignee' },
      propertyId: world.properties.growth.id,
      planId: world.tasks.plan.id,
      createdAt: world.tasks.step1.createdAt.toISOString(),
    });
  });

  it('[READ-28] every task has well-formed fields and validates against taskSchema (no extra keys)', async () => {
    const tasks = await all<TaskBody>('/v1/tasks');
    expectRowsMatch(taskSchema, tasks.data);
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
    for (const t of tasks.data) {
      expect(t.createdAt).toMatch(iso);
      expect(t.updatedAt).toMatch(iso);
      expect(Number.isNaN(Date.parse(t.updatedAt))).toBe(false);
      expect(t.dueDate === null || /^\d{4}-\d{2}-\d{2}$/.test(t.dueDate)).toBe(true);
      expect(t.priority === null || ['urgent', 'high', 'medium', 'low'].includes(t.priority)).toBe(true);
      expect(['backlog', 'todo', 'in_progress', 'done', 'canceled']).toContain(t.status);
      for (const l of t.labels) expect(l.color === null || /^#[0-9a-fA-F]{6}$/.test(l.color)).toBe(true);
      expect(t.assignee === null || Object.keys(t.assignee).sort().join() === 'id,name').toBe(true);
    }
  });
});

// ------------------------------------------------------------------ READ-29 other resources

describe('other read resources', () => {
  it('[READ-29] /v1/properties: id, name, domain, plan, createdAt', async () => {
    const body = await all<{ id: string; createdAt: string }>('/v1/properties');
    expectRowsMatch(propertySchema, body.data);
    const expected = (['growth', 'starter'] as const).map((prop) => ({
      id: world.properties[prop].id,
      name: world.properties[prop].name,
      domain: `${prop}.example.com`,
      plan: prop,
    }));
    const stored = await harness.db.property.findMany({ where: { id: { in: expected.map((p) => p.id) } } });
    expect(sortBy(body.data, (p) => p.id)).toEqual(
      sortBy(
        expected.map((p) => ({ ...p, createdAt: stored.find((s) => s.id === p.id)!.createdAt.toISOString() })),
        (p) => p.id,
      ),
    );
    const teamB = await all('/v1/properties', {}, 'teamB');
    expect(teamB.data).toEqual([
      expect.objectContaining({ id: world.properties.other.id, domain: 'other.example.com', plan: 'scale' }),
    ]);
  });

  it('[READ-29] /v1/prompts: id, propertyId, text, tags, active, createdAt; filter propertyId', async () => {
    const body = await all<{ id: string; propertyId: string }>('/v1/prompts');
    expectRowsMatch(promptSchema, body.data);
    const expected = (['growth', 'starter'] as const).flatMap((prop) =>
      world.properties[prop].promptIds.map((id, i) => ({
        id,
        propertyId: world.properties[prop].id,
        text: `${i === 0 ? 'best tools' : 'compare vendors'} (${prop})`,
        tags: i === 0 ? ['discovery'] : [],
        active: true,
        createdAt: hoursBefore(10 - i).toISOString(),
      })),
    );
    expect(sortBy(body.data, (p) => p.id)).toEqual(sortBy(expected, (p) => p.id));
    const growth = await all<{ id: string; propertyId: string }>('/v1/prompts', {
      propertyId: world.properties.growth.id,
    });
    expect(growth.data.map((p) => p.id).sort()).toEqual([...world.properties.growth.promptIds].sort());
  });

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
    expect(await list('/v1/sources', { model: 'gemini' })).toEqual({ data: [], total: 0 });
  });

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
    expect(await list('/v1/sources/urls', { domain: 'nowhere.example' })).toEqual({ data: [], total: 0 });
  });

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
