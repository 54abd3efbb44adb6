import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReadApiClient, readApiPages, readApiRows } from '@vt/api-client';
import { encodeCursor } from '@vt/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';

// Issue 31 item 1: cursor paging on every /v1 list (Stripe's starting_after / ending_before), with
// has_more, next_cursor, prev_cursor and a Link header, beside the spec's {data, total} and offset.

const NOW = new Date('2026-03-15T12:00:00Z');
const harness = createReadApiHarness({ now: NOW });
let world: ReadWorld;

/** Every list, with a filter that keeps it to a few pages, and what names a row. */
const LISTS: { path: string; query: Record<string, string | number>; idOf: (row: Row) => string }[] = [
  { path: '/v1/responses', query: { model: 'chatgpt' }, idOf: (row) => String(row.id) },
  { path: '/v1/tasks', query: {}, idOf: (row) => String(row.id) },
  { path: '/v1/properties', query: {}, idOf: (row) => String(row.id) },
  { path: '/v1/prompts', query: {}, idOf: (row) => String(row.id) },
  { path: '/v1/visibility', query: {}, idOf: (row) => `${row.date} ${row.propertyId} ${row.model}` },
  { path: '/v1/competitors', query: {}, idOf: (row) => String(row.id) },
  { path: '/v1/sources', query: {}, idOf: (row) => String(row.domain) },
  { path: '/v1/sources/urls', query: { model: 'perplexity' }, idOf: (row) => String(row.url) },
];
type Row = Record<string, unknown>;
interface Page {
  data: Row[];
  total: number;
  has_more: boolean;
  next_cursor: string | null;
  prev_cursor: string | null;
}

const get = (path: string, query: Record<string, string | number>) =>
  request(harness.app).get(path).query(query).set('Authorization', `Bearer ${world.keys.all}`);

async function page(path: string, query: Record<string, string | number>): Promise<Page> {
  const res = await get(path, query);
  expect(res.status, `${path} ${JSON.stringify(query)} ${res.text}`).toBe(200);
  return res.body as Page;
}

beforeAll(async () => {
  world = await seedReadWorld(harness.db, NOW);
}, 60_000);
afterAll(() => harness.close());

describe('cursor paging on every /v1 list', () => {
  for (const { path, query, idOf } of LISTS) {
    it(`[READ-6] [READ-19] ${path}: starting_after from page to page gives the offset-free whole list, then back with ending_before`, async () => {
      const whole = await page(path, { ...query, limit: 1000 });
      expect(whole.has_more).toBe(false);
      expect(whole.next_cursor).toBeNull();
      expect(whole.prev_cursor).toBeNull();
      const size = Math.max(1, Math.ceil(whole.total / 4));
      const forward: Row[] = [];
      const cursors: (string | null)[] = [];
      let current = await page(path, { ...query, limit: size });
      for (;;) {
        // total is every match on every page (READ-6), whatever the cursor.
        expect(current.total).toBe(whole.total);
        forward.push(...current.data);
        cursors.push(current.prev_cursor);
        if (!current.has_more) break;
        expect(current.next_cursor).not.toBeNull();
        current = await page(path, { ...query, limit: size, starting_after: current.next_cursor as string });
      }
      expect(forward.map(idOf)).toEqual(whole.data.map(idOf));
      expect(cursors[0]).toBeNull();
      // Back from the last page: ending_before its first row, page by page, to the start.
      const backward: Row[] = [...current.data];
      let before = current.prev_cursor;
      while (before !== null) {
        const previous = await page(path, { ...query, limit: size, ending_before: before });
        backward.unshift(...previous.data);
        expect(previous.next_cursor).not.toBeNull();
        before = previous.has_more ? previous.prev_cursor : null;
      }
      expect(backward.map(idOf)).toEqual(whole.data.map(idOf));
    });
  }

  it('Link names the next and previous pages with the same filters; the last page has no rel="next"', async () => {
    const first = await get('/v1/responses', { model: 'chatgpt', mentioned: 'true', limit: 5, offset: 0 });
    const link = String(first.headers.link);
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1] as string;
    const url = new URL(next, 'http://x');
    expect(url.pathname).toBe('/v1/responses');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      model: 'chatgpt',
      mentioned: 'true',
      limit: '5',
      starting_after: first.body.next_cursor,
    });
    expect(link).not.toContain('rel="prev"');
    const second = await request(harness.app).get(next).set('Authorization', `Bearer ${world.keys.all}`);
    expect(second.status).toBe(200);
    expect(String(second.headers.link)).toContain(`ending_before=${second.body.prev_cursor}>; rel="prev"`);
    const last = await get('/v1/properties', { limit: 1000 });
    expect(last.headers.link).toBeUndefined();
  });

  it('a page read by cursor is stable under inserts; the same page by offset shifts', async () => {
    const first = await page('/v1/tasks', { limit: 2 });
    const secondBefore = await page('/v1/tasks', { limit: 2, starting_after: first.next_cursor as string });
    const byOffsetBefore = await page('/v1/tasks', { limit: 2, offset: 2 });
    // A task created now is the newest: it goes to the front of the list.
    await harness.db.task.create({
      data: { propertyId: world.properties.growth.id, title: 'inserted while paging', reviewState: 'accepted' },
    });
    const secondAfter = await page('/v1/tasks', { limit: 2, starting_after: first.next_cursor as string });
    expect(secondAfter.data.map((row) => row.id)).toEqual(secondBefore.data.map((row) => row.id));
    expect(secondAfter.total).toBe(secondBefore.total + 1);
    const byOffsetAfter = await page('/v1/tasks', { limit: 2, offset: 2 });
    expect(byOffsetAfter.data[0]?.id).toBe(first.data[1]?.id);
    expect(byOffsetAfter.data.map((row) => row.id)).not.toEqual(byOffsetBefore.data.map((row) => row.id));
  });

  it('[READ-15] a tampered or foreign cursor answers 400 INVALID_PARAM naming the parameter', async () => {
    const { next_cursor: good } = await page('/v1/responses', { limit: 1 });
    const tampered = [
      'not a cursor!',
      'AAAA',
      `${good}x`,
      encodeCursor(['2026-03-15']), // too short
      encodeCursor(['2026-02-30', '6f1c2a70-5b47-4c41-9a63-0f9b3a3b1f00']), // not a day
      encodeCursor(['2026-03-15', "x' OR 1=1 --"]), // not a UUID
      encodeCursor([7, 'example.com']), // /v1/sources' key
      Buffer.from('{"day":"2026-03-15"}').toString('base64url'),
      'x'.repeat(5000),
    ];
    for (const cursor of tampered) {
      for (const name of ['starting_after', 'ending_before']) {
        const res = await get('/v1/responses', { [name]: cursor });
        expect(res.status, `${name}=${cursor.slice(0, 40)}`).toBe(400);
        expect(res.body).toEqual({ error: { code: 'INVALID_PARAM', message: expect.stringContaining(`'${name}'`) } });
        expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
      }
    }
  });

  it('[READ-15] both cursors, or a cursor and an offset, answer 400 INVALID_PARAM; offset 0 is allowed', async () => {
    const { next_cursor: cursor } = await page('/v1/tasks', { limit: 1 });
    const both = await get('/v1/tasks', { starting_after: cursor as string, ending_before: cursor as string });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('INVALID_PARAM');
    const withOffset = await get('/v1/tasks', { starting_after: cursor as string, offset: 3 });
    expect(withOffset.status).toBe(400);
    expect(withOffset.body.error.message).toMatch(/'offset'/);
    expect((await get('/v1/tasks', { starting_after: cursor as string, offset: 0 })).status).toBe(200);
  });

  it('has_more on an offset page says whether rows follow; prev_cursor whether rows precede', async () => {
    const total = (await page('/v1/prompts', { limit: 1 })).total;
    const middle = await page('/v1/prompts', { limit: 1, offset: 1 });
    expect(middle.has_more).toBe(total > 2);
    expect(middle.prev_cursor).not.toBeNull();
    const last = await page('/v1/prompts', { limit: 1, offset: total - 1 });
    expect(last.has_more).toBe(false);
    expect(last.next_cursor).toBeNull();
  });
});

describe('the typed client’s iterator', () => {
  let server: Server;
  beforeAll(async () => {
    server = harness.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('[READ-30] readApiPages follows next_cursor to the end; readApiRows yields every row once, in order', async () => {
    const api = createReadApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, world.keys.all);
    const whole = await page('/v1/responses', { propertyId: world.properties.growth.id, limit: 1000 });
    const sizes: number[] = [];
    for await (const one of readApiPages(api, '/v1/responses', { propertyId: world.properties.growth.id, limit: 25 })) {
      sizes.push(one.data.length);
      expect(one.total).toBe(whole.total);
    }
    expect(sizes.length).toBe(Math.ceil(whole.total / 25));
    const ids: string[] = [];
    for await (const row of readApiRows(api, '/v1/responses', { propertyId: world.properties.growth.id, limit: 40 })) {
      ids.push(row.id);
    }
    expect(ids).toEqual(whole.data.map((row) => row.id));
    const domains: string[] = [];
    for await (const row of readApiRows(api, '/v1/sources', { limit: 1 })) domains.push(row.domain);
    expect(new Set(domains).size).toBe(domains.length);
    expect(domains.length).toBe((await page('/v1/sources', {})).total);
  });

  it('ends with a ReadApiPagingError carrying the envelope when a page is refused', async () => {
    const api = createReadApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'vt_live_nope');
    await expect(readApiRows(api, '/v1/tasks').next()).rejects.toMatchObject({
      name: 'ReadApiPagingError',
      status: 401,
      body: { error: { code: 'INVALID_KEY' } },
      message: expect.stringContaining('read API answered 401 INVALID_KEY: '),
    });
  });

  it('[READ-30] takes only list paths and their own filters (pnpm typecheck fails otherwise)', () => {
    const api = createReadApiClient('http://127.0.0.1:1', world.keys.all);
    // Generators run nothing until iterated: these lines are checked by tsc, not sent.
    readApiPages(api, '/v1/tasks', { status: 'todo', limit: 10 });
    // @ts-expect-error a detail is not a list
    readApiPages(api, '/v1/responses/{id}');
    // @ts-expect-error /v1/tasks has no `mentioned` filter
    readApiRows(api, '/v1/tasks', { mentioned: true });
    // @ts-expect-error the iterator drives the cursor itself
    readApiPages(api, '/v1/responses', { starting_after: 'x' });
    expect(typeof readApiPages).toBe('function');
  });
});
