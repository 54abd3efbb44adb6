import { readEndpoints } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpointSuite, type KeyName } from './testing/index.ts';

// Isolation across every /v1 route of the catalogue (a new route is covered as it is added): team
// A's keys, the all-properties one and the scoped one, given team B's ids in every path and every
// id filter, read nothing of team B; a revoked key reads nothing at all.

const { world, get, harness } = endpointSuite();
const endpoints = Object.values(readEndpoints);

/** Team B's ids and names: none may appear in an answer to a team A key. */
async function teamBMarks() {
  const other = world.properties.other;
  const responses = await harness.db.response.findMany({ where: { propertyId: other.id }, select: { id: true } });
  expect(responses.length).toBeGreaterThan(0);
  return {
    property: other,
    responseIds: responses.map((r) => r.id),
    marks: [other.id, ...other.promptIds, ...other.competitorIds, ...responses.map((r) => r.id), 'other.example.com'],
  };
}

/** The id filters a list route accepts (`propertyId`, `promptId`, …), from its query schema. */
const idFilters = (endpoint: (typeof endpoints)[number]) =>
  endpoint.query ? Object.keys((endpoint.query as z.ZodObject).shape).filter((name) => /Id$/.test(name)) : [];

describe('isolation between teams, on every /v1 route', () => {
  it("[READ-9] [READ-12] team A's keys given team B's ids in paths and filters read nothing of team B", async () => {
    const b = await teamBMarks();
    const idsFor: Record<string, string[]> = {
      propertyId: [b.property.id],
      promptId: b.property.promptIds,
      competitorId: b.property.competitorIds,
    };
    let checked = 0;
    for (const key of ['all', 'scoped'] as KeyName[]) {
      for (const endpoint of endpoints) {
        if (endpoint.shape === 'detail') {
          for (const id of b.responseIds.slice(0, 3)) {
            const res = await get(endpoint.path.replace('{id}', id), key);
            expect(res.status, `${key} ${endpoint.path} ${id}`).toBe(404);
            expect(res.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
            checked++;
          }
          continue;
        }
        const filters = idFilters(endpoint);
        const queries = [{}, ...filters.flatMap((name) => (idsFor[name] ?? []).map((id) => ({ [name]: id })))];
        for (const query of queries) {
          const res = await get(endpoint.path, key, { limit: 1000, ...query });
          expect(res.status, `${key} ${endpoint.path} ${JSON.stringify(query)}`).toBe(200);
          for (const mark of b.marks)
            expect(res.text, `${key} ${endpoint.path} ${JSON.stringify(query)}`).not.toContain(mark);
          if (Object.keys(query).length > 0) expect(res.body).toMatchObject({ data: [], total: 0 });
          checked++;
        }
      }
    }
    // Every route, and every id filter a route has, was tried.
    expect(checked).toBeGreaterThan(endpoints.length * 2);
    expect(endpoints.some((e) => idFilters(e).includes('propertyId'))).toBe(true);
  });

  it('[READ-12] a revoked key reads nothing on any route: 401 INVALID_KEY', async () => {
    const b = await teamBMarks();
    for (const endpoint of endpoints) {
      const path = endpoint.path.replace('{id}', b.responseIds[0]!);
      const res = await get(path, 'revoked');
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual({ error: { code: 'INVALID_KEY', message: expect.any(String) } });
    }
  });
});
