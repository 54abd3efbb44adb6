import { API_ERROR_STATUS, errorEnvelopeSchema, readEndpoints } from '@vt/contracts';
import { generateApiKey } from '@vt/credentials';
import { testDb, uniqueSlug } from '@vt/test-support';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadApiHarness } from './testing/index.ts';

// Property-based: random and hostile query strings, path ids and Authorization headers on every
// /v1 route. Whatever comes in, the answer is JSON, never HTML, never a 500, and either a 200 or
// the documented error envelope with the status its code maps to. `pnpm test:fuzz` runs more
// cases (FUZZ_RUNS); the regular suite runs a few hundred.

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const db = testDb();
const harness = createReadApiHarness();
let key = '';

beforeAll(async () => {
  const team = await db.team.create({ data: { name: 'Fuzz', slug: uniqueSlug('fuzz') } });
  await db.property.create({
    data: { teamId: team.id, name: 'Fuzz', domain: 'fuzz.example', plan: 'growth', brandTerms: ['Fuzz'] },
  });
  const issued = generateApiKey();
  await db.apiKey.create({ data: { teamId: team.id, name: 'fuzz', keyHash: issued.hash, prefix: issued.prefix } });
  key = issued.key;
});
afterAll(() => harness.close());

const paths = Object.values(readEndpoints).map((e) => e.path);
const paramNames = [
  'propertyId',
  'promptId',
  'model',
  'mentioned',
  'from',
  'to',
  'limit',
  'offset',
  'status',
  'domain',
];

/** Hostile text: unicode, NULs, lone surrogates percent-encoded, huge numbers, SQL and HTML. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '%00',
    '%E0%A4%A',
    '%ZZ',
    '99999999999999999999999',
    '-1',
    '1e400',
    'NaN',
    '2026-02-30',
    '0000-00-00',
    '../../etc/passwd',
    'x'.repeat(5000),
  ),
  fc.integer().map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);

const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...paramNames), fc.string({ maxLength: 12 })), hostile), { maxLength: 6 })
  .map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${/%/.test(v) ? v : encodeURIComponent(v)}`).join('&'),
  );

function expectDocumented(res: request.Response) {
  expect(res.status).not.toBe(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.text).not.toMatch(/<html|<!doctype/i);
  if (res.status === 200) return;
  const envelope = errorEnvelopeSchema.parse(res.body);
  expect(res.status).toBe(API_ERROR_STATUS[envelope.error.code]);
}

describe('/v1 under random and hostile requests', () => {
  it('answers every query string on every route with JSON: 200 or its documented error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.string({ maxLength: 40 }),
        queryString,
        async (path, id, query) => {
          const concrete = path.replace('{id}', encodeURIComponent(id) || 'x');
          const res = await request(harness.app).get(`${concrete}?${query}`).set('Authorization', `Bearer ${key}`);
          expectDocumented(res);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers every Authorization header with 401 or an answer, never an error of its own', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 200 }).filter((h) => !/[\r\n\0]/.test(h) && /^[\x20-\x7e]*$/.test(h)),
      fc.constantFrom('Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', `Bearer ${'a'.repeat(4000)}`, 'bearer vt_live_x'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), header, async (path, authorization) => {
        const res = await request(harness.app).get(path.replace('{id}', 'x')).set('Authorization', authorization);
        expectDocumented(res);
        expect([200, 401, 404]).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
  });
});
