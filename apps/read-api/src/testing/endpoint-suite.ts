import type { responseSchema } from '@vt/contracts';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { answerKey, createEndpointExpectations } from './endpoint-expectations.ts';
import { type ExtraTasks, type KeyName, NOW, seedEndpointWorld } from './endpoint-world.ts';
import { createReadApiHarness } from './read-api-harness.ts';
import type { ReadWorld } from './read-world.ts';

export type ResponseRow = z.infer<typeof responseSchema>;
export type Row = Record<string, unknown>;
export type Query = Record<string, string | number | boolean>;
export interface ListBody<T = Row> {
  data: T[];
  total: number;
}

export const rowKey = (r: ResponseRow) =>
  answerKey({ propertyId: r.property.id, promptId: r.promptId, model: r.model, date: r.date });

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
export const sortBy = <T>(rows: T[], key: (row: T) => string) => [...rows].sort(byKey(key));

/**
 * One /v1 endpoint test file's setup: a read API harness on the fixed clock `NOW`, its own seeded
 * endpoint world (in beforeAll), the clock reset after each test, and helpers that ask with the
 * world's keys. Call it once at the top of a test file.
 */
export function endpointSuite() {
  const harness = createReadApiHarness({ now: NOW });
  // Stable objects filled in by beforeAll, so a file can destructure them at load time and its
  // tests still read the seeded rows.
  const world = {} as ReadWorld;
  const extraTasks = {} as ExtraTasks;

  beforeAll(async () => {
    const seeded = await seedEndpointWorld(harness.db);
    Object.assign(world, seeded.world);
    Object.assign(extraTasks, seeded.extraTasks);
  });
  afterEach(() => harness.setNow(NOW));
  afterAll(() => harness.close());

  function get(path: string, key: KeyName | 'revoked' = 'all', query: Query = {}) {
    return request(harness.app).get(path).query(query).set('Authorization', `Bearer ${world.keys[key]}`);
  }

  async function list<T = Row>(path: string, query: Query = {}, key: KeyName = 'all'): Promise<ListBody<T>> {
    const res = await get(path, key, query);
    expect(res.status, `${path} ${JSON.stringify(query)}: ${JSON.stringify(res.body)}`).toBe(200);
    // {data, total} (READ-6) and the cursor fields added beside them (additive, Versioning 2).
    expect(Object.keys(res.body).sort()).toEqual(['data', 'has_more', 'next_cursor', 'prev_cursor', 'total']);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(Number.isInteger(res.body.total)).toBe(true);
    return res.body as ListBody<T>;
  }

  /** Every row of a list, in one page of the maximum size. */
  const all = <T = Row>(path: string, query: Query = {}, key: KeyName = 'all') =>
    list<T>(path, { limit: 1000, ...query }, key);

  return { harness, world, extraTasks, get, list, all, ...createEndpointExpectations(world, extraTasks) };
}
