import { readApiConfigSchema } from '@vt/config';
import { type Deprecation, defineReadEndpoint, pagingParams, type ReadEndpoint, readEndpoints } from '@vt/contracts';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from '@vt/credentials';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';
import type { ReadRoute } from './v1-router.ts';

// Protocol rules of the read API (/v1): methods, error envelope, authentication, query
// validation, rate limit and its headers, paging defaults, deprecation headers. Endpoint payloads
// are covered in endpoints/<operation>.test.ts and the OpenAPI document in its own file.

const NOW = new Date('2026-03-15T12:00:00Z');
const BUDGET_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'] as const;
const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;

// A test-only deprecated endpoint: deprecated 2026-01-01, sunset 2026-07-01 (181 days later).
const DEPRECATION: Deprecation = {
  deprecatedAt: new Date('2026-01-01T00:00:00Z'),
  sunsetAt: new Date('2026-07-01T00:00:00Z'),
};
const EXPECTED_DEPRECATION = '@1767225600';
const EXPECTED_SUNSET = 'Wed, 01 Jul 2026 00:00:00 GMT';

const legacyEndpoint = defineReadEndpoint({
  operationId: 'listLegacyThings',
  tag: 'Tasks',
  path: '/v1/legacy-things',
  summary: 'Legacy things (test only)',
  description: 'A deprecated endpoint that exists only in this test file.',
  shape: 'list',
  query: z.object({ ...pagingParams }),
  item: z.object({ id: z.string() }),
  deprecation: DEPRECATION,
});

const brokenEndpoint = defineReadEndpoint({
  operationId: 'listBrokenThings',
  tag: 'Tasks',
  path: '/v1/broken-things',
  summary: 'Broken things (test only)',
  description: 'Its operation runs a query Postgres refuses, like a failing database.',
  shape: 'list',
  query: z.object({ ...pagingParams }),
  item: z.object({ id: z.string() }),
});

const harness = createReadApiHarness({ now: NOW });
/** Three requests per key per minute: READ-16/17/18. */
const limited = createReadApiHarness({ now: NOW, rateLimitPerMinute: 3 });
/** The budget the service runs with when RATE_LIMIT_PER_MINUTE is not set. */
const defaultBudget = createReadApiHarness({
  now: NOW,
  rateLimitPerMinute: readApiConfigSchema.parse({}).RATE_LIMIT_PER_MINUTE,
});
/** A second replica on the same Redis prefix as `limited`: the budget is shared. */
const limitedReplica = createReadApiHarness({ now: NOW, rateLimitPerMinute: 3, prefix: limited.prefix });
/** Looked-up keys trusted for 50 ms only: revocation shows quickly. */
const shortCache = createReadApiHarness({ now: NOW, cacheTtlMs: 50 });
const extraRoutes: ReadRoute[] = [
  { endpoint: legacyEndpoint as ReadEndpoint, operation: async () => ({ data: [], total: 0 }) },
  {
    endpoint: brokenEndpoint as ReadEndpoint,
    operation: async () => {
      await harness.db.$queryRawUnsafe('SELECT * FROM read_api_protocol_test_no_such_table');
      return { data: [], total: 0 };
    },
  },
];
/** The catalogue plus a deprecated and a failing endpoint; two requests per key per minute. */
const extended = createReadApiHarness({ now: NOW, rateLimitPerMinute: 2, extraRoutes });

/** Answers reused for a minute, as in production: the protocol must not change with them. */
const cached = createReadApiHarness({ now: NOW, answerCacheTtlMs: 60_000, cacheTtlMs: 50, extraRoutes });

let world: ReadWorld;
let responseId: string;

beforeAll(async () => {
  world = await seedReadWorld(harness.db, NOW);
  const response = await harness.db.response.findFirstOrThrow({
    where: { propertyId: world.properties.growth.id },
    orderBy: { day: 'desc' },
  });
  responseId = response.id;
  await Promise.all([limited, limitedReplica, extended, defaultBudget].map((h) => h.redisReady()));
}, 60_000);

afterAll(async () => {
  await Promise.all(
    [harness, limited, limitedReplica, shortCache, extended, defaultBudget, cached].map((h) => h.close()),
  );
});

const bearer = (key: string) => `Bearer ${key}`;

/** A concrete path for a catalogue path: `{id}` becomes a real response id in team A's scope. */
const concretePath = (path: string) => path.replace('{id}', responseId);

/** A new read key on team A (every property), for tests that need a budget of their own. */
async function freshKey(): Promise<string> {
  const issued = generateApiKey();
  await harness.db.apiKey.create({
    data: {
      teamId: world.teamA.id,
      name: 'protocol test key',
      keyHash: issued.hash,
      prefix: issued.prefix,
      access: 'read',
      allProperties: true,
    },
  });
  return issued.key;
}

/** The exact error envelope `{error: {code, message}}`, as JSON, never HTML. */
function expectEnvelope(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.text.trimStart().startsWith('<')).toBe(false);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
}

function expectNoBudgetHeaders(res: request.Response) {
  for (const name of BUDGET_HEADERS) expect(res.headers[name], name).toBeUndefined();
}

function expectNoDeprecationHeaders(res: request.Response) {
  expect(res.headers.deprecation).toBeUndefined();
  expect(res.headers.sunset).toBeUndefined();
}

const catalogue = Object.values(readEndpoints) as ReadEndpoint[];

describe('methods on every catalogued path', () => {
  for (const endpoint of catalogue) {
    it(`[READ-1] GET ${endpoint.path} answers 200 JSON in the ${endpoint.shape} envelope`, async () => {
      const res = await request(harness.app)
        .get(concretePath(endpoint.path))
        .set('Authorization', bearer(world.keys.all));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      if (endpoint.shape === 'list') {
        // {data, total}, and the additive cursor fields (issue 31).
        expect(Object.keys(res.body).sort()).toEqual(['data', 'has_more', 'next_cursor', 'prev_cursor', 'total']);
        expect(Array.isArray(res.body.data)).toBe(true);
      } else {
        expect(Object.keys(res.body)).toEqual(['data']);
        expect(res.body.data.id).toBe(responseId);
      }
      // [READ-17] every 200 carries the budget.
      for (const name of BUDGET_HEADERS.slice(0, 3)) expect(res.headers[name], name).toMatch(/^\d+$/);
    });

    it(`[READ-2] HEAD ${endpoint.path} answers the GET's status and headers with an empty body`, async () => {
      const path = concretePath(endpoint.path);
      // The same Accept-Encoding on both (superagent sends one on a GET only): the coding decides the length.
      const get = await request(harness.app)
        .get(path)
        .set('Authorization', bearer(world.keys.all))
        .set('Accept-Encoding', 'gzip');
      const head = await request(harness.app)
        .head(path)
        .set('Authorization', bearer(world.keys.all))
        .set('Accept-Encoding', 'gzip');
      expect(get.status).toBe(200);
      expect(head.headers['content-encoding']).toBe(get.headers['content-encoding']);
      expect(head.status).toBe(get.status);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
      expect(head.headers['x-ratelimit-limit']).toBe(get.headers['x-ratelimit-limit']);
      // HEAD is counted like the GET it stands for: one fewer left.
      expect(Number(head.headers['x-ratelimit-remaining'])).toBe(Number(get.headers['x-ratelimit-remaining']) - 1);
      expect(
        Math.abs(Number(head.headers['x-ratelimit-reset']) - Number(get.headers['x-ratelimit-reset'])),
      ).toBeLessThanOrEqual(1);
      expect(head.text ?? '').toBe('');
    });

    it(`[READ-3] OPTIONS ${endpoint.path} answers 204 with Allow: GET, HEAD, OPTIONS and no body`, async () => {
      const res = await request(harness.app)
        .options(concretePath(endpoint.path))
        .set('Authorization', bearer(world.keys.all));
      expect(res.status).toBe(204);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(res.text ?? '').toBe('');
      expectNoBudgetHeaders(res);
      // A browser's preflight carries no key: it gets the same answer.
      const preflight = await request(harness.app).options(concretePath(endpoint.path));
      expect(preflight.status).toBe(204);
      expect(preflight.headers.allow).toBe('GET, HEAD, OPTIONS');
    });

    it(`[READ-4] POST, PUT, PATCH and DELETE ${endpoint.path} answer 405 METHOD_NOT_ALLOWED with Allow`, async () => {
      for (const method of WRITE_METHODS) {
        const res = await request(harness.app)
          [method](concretePath(endpoint.path))
          .set('Authorization', bearer(world.keys.all));
        expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
        expect(res.headers.allow, method).toBe('GET, HEAD, OPTIONS');
        expectNoBudgetHeaders(res);
      }
    });
  }

  it('[READ-4] a POST with a JSON body to a GET path still answers 405 JSON', async () => {
    const res = await request(harness.app)
      .post('/v1/responses')
      .set('Authorization', bearer(world.keys.all))
      .set('Content-Type', 'application/json')
      .send({ propertyId: world.properties.growth.id, mentioned: true });
    expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('[READ-1] no write endpoint exists: a POST changes nothing the GET reports', async () => {
    const before = await request(harness.app).get('/v1/tasks').set('Authorization', bearer(world.keys.all));
    await request(harness.app)
      .post('/v1/tasks')
      .set('Authorization', bearer(world.keys.all))
      .send({ title: 'Should not be created', propertyId: world.properties.growth.id });
    const after = await request(harness.app).get('/v1/tasks').set('Authorization', bearer(world.keys.all));
    expect(after.body).toEqual(before.body);
  });
});

describe('[READ-5] error envelope, never HTML', () => {
  it('[READ-5] 400 is exactly {error: {code, message}}', async () => {
    const res = await request(harness.app).get('/v1/responses?limit=0').set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 400, 'INVALID_PARAM');
  });

  it('[READ-5] 401 is exactly {error: {code, message}}', async () => {
    expectEnvelope(await request(harness.app).get('/v1/responses'), 401, 'MISSING_AUTH');
  });

  it('[READ-5] 404 for an unknown /v1 path is exactly {error: {code, message}}', async () => {
    const res = await request(harness.app).get('/v1/no-such-endpoint').set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 404, 'NOT_FOUND');
  });

  it('[READ-5] 404 for a detail id not in scope is exactly {error: {code, message}}', async () => {
    const res = await request(harness.app)
      .get(`/v1/responses/${responseId}`)
      .set('Authorization', bearer(world.keys.teamB));
    expectEnvelope(res, 404, 'NOT_FOUND');
  });

  it('[READ-5] 405 is exactly {error: {code, message}}', async () => {
    const res = await request(harness.app).delete('/v1/tasks').set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
  });

  it('[READ-5] a malformed percent-encoded detail id (/v1/responses/%E0%A4%A) answers 404 JSON, not an HTML 400', async () => {
    const res = await request(harness.app).get('/v1/responses/%E0%A4%A').set('Authorization', bearer(world.keys.all));
    // Sent as is, not re-encoded by the client.
    expect((res as unknown as { req: { path: string } }).req.path).toBe('/v1/responses/%E0%A4%A');
    expectEnvelope(res, 404, 'NOT_FOUND');
    expectNoBudgetHeaders(res);
  });

  it('[READ-5] /v1/% answers 404 JSON', async () => {
    const res = await request(harness.app).get('/v1/%').set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 404, 'NOT_FOUND');
  });

  it('[READ-5] malformed percent-encoding in the query string answers a JSON 400, not HTML', async () => {
    const res = await request(harness.app)
      .get('/v1/responses?limit=%E0%A4%A')
      .set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 400, 'INVALID_PARAM');
  });

  it('[READ-5] a GET carrying a (malformed JSON) body is answered with JSON: the body is ignored', async () => {
    const ok = await request(harness.app)
      .get('/v1/properties')
      .set('Authorization', bearer(world.keys.all))
      .set('Content-Type', 'application/json')
      .send('{"not": json');
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^application\/json/);
    expect(ok.body.total).toBe(2);

    const missing = await request(harness.app)
      .get('/v1/nowhere')
      .set('Content-Type', 'application/json')
      .send('{"not": json');
    expectEnvelope(missing, 404, 'NOT_FOUND');
  });

  it('[READ-5] unknown paths outside /v1 answer the 404 JSON envelope too', async () => {
    for (const path of ['/', '/nope', '/v2/responses', '/api/v1/responses', '/docs/assets/no-such-file.js', '/%']) {
      const res = await request(harness.app).get(path);
      expectEnvelope(res, 404, 'NOT_FOUND');
    }
    // Asking for HTML changes nothing.
    expectEnvelope(await request(harness.app).get('/v1/nope').set('Accept', 'text/html'), 404, 'NOT_FOUND');
    expectEnvelope(await request(harness.app).get('/v1/tasks').set('Accept', 'text/html'), 401, 'MISSING_AUTH');
    // A method no route serves outside /v1 is also a JSON 404.
    expectEnvelope(await request(harness.app).post('/healthz').send({ a: 1 }), 404, 'NOT_FOUND');
  });
});

describe('[READ-10..13] authentication', () => {
  it('[READ-10] no Authorization header → 401 MISSING_AUTH', async () => {
    for (const endpoint of catalogue) {
      const res = await request(harness.app).get(concretePath(endpoint.path));
      expectEnvelope(res, 401, 'MISSING_AUTH');
    }
  });

  it.each([
    ['Basic x', 'another scheme'],
    ['Token x', 'another scheme'],
    ['Bearer', 'the scheme alone'],
    ['bearer', 'the lower-case scheme alone'],
    ['Bearer a b', 'two tokens'],
    ['KEY', 'the key without a scheme'],
  ])('[READ-11] Authorization %j (%s) → 401 INVALID_AUTH', async (header) => {
    const res = await request(harness.app)
      .get('/v1/responses')
      .set('Authorization', header.replace('KEY', world.keys.all));
    expectEnvelope(res, 401, 'INVALID_AUTH');
  });

  it('[READ-11] a lower-case scheme `bearer <key>` is accepted (RFC 9110: auth schemes are case-insensitive)', async () => {
    const lower = await request(harness.app).get('/v1/properties').set('Authorization', `bearer ${world.keys.all}`);
    const upper = await request(harness.app).get('/v1/properties').set('Authorization', `BEARER ${world.keys.all}`);
    expect(lower.status).toBe(200);
    expect(upper.status).toBe(200);
    expect(lower.body.total).toBe(2);
  });

  it('[READ-12] a malformed key (not the key shape) → 401 INVALID_KEY', async () => {
    const res = await request(harness.app).get('/v1/responses').set('Authorization', 'Bearer abc');
    expectEnvelope(res, 401, 'INVALID_KEY');
  });

  it('[READ-12] a key with a bad checksum → 401 INVALID_KEY', async () => {
    const key = world.keys.all;
    const last = key.at(-1);
    const bad = `${key.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    expect(isWellFormedApiKey(bad)).toBe(false);
    const res = await request(harness.app).get('/v1/responses').set('Authorization', bearer(bad));
    expectEnvelope(res, 401, 'INVALID_KEY');
  });

  it('[READ-12] a real key under a wrong prefix, or without its prefix → 401 INVALID_KEY', async () => {
    const secret = world.keys.all.slice(API_KEY_PREFIX.length);
    for (const key of [`vt_test_${secret}`, `sk_live_${secret}`, secret]) {
      const res = await request(harness.app).get('/v1/responses').set('Authorization', bearer(key));
      expectEnvelope(res, 401, 'INVALID_KEY');
    }
  });

  it('[READ-12] a well-formed key that was never stored → 401 INVALID_KEY', async () => {
    const unknown = generateApiKey().key;
    expect(isWellFormedApiKey(unknown)).toBe(true);
    const res = await request(harness.app).get('/v1/responses').set('Authorization', bearer(unknown));
    expectEnvelope(res, 401, 'INVALID_KEY');
  });

  it('[READ-12] a revoked key → 401 INVALID_KEY', async () => {
    const res = await request(harness.app).get('/v1/responses').set('Authorization', bearer(world.keys.revoked));
    expectEnvelope(res, 401, 'INVALID_KEY');
  });

  it('[READ-12] revoking a key in the database makes it fail once the key cache (50 ms here) expires', async () => {
    const key = await freshKey();
    const before = await request(shortCache.app).get('/v1/properties').set('Authorization', bearer(key));
    expect(before.status).toBe(200);

    const revoked = await harness.db.apiKey.updateMany({
      where: { keyHash: hashApiKey(key) },
      data: { revokedAt: new Date() },
    });
    expect(revoked.count).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 150));

    const after = await request(shortCache.app).get('/v1/properties').set('Authorization', bearer(key));
    expectEnvelope(after, 401, 'INVALID_KEY');
  });

  it('[READ-13] a write-access key reads exactly what a read key of the same scope reads', async () => {
    for (const path of ['/v1/responses?limit=1000', '/v1/tasks', '/v1/properties', `/v1/responses/${responseId}`]) {
      const read = await request(harness.app).get(path).set('Authorization', bearer(world.keys.all));
      const write = await request(harness.app).get(path).set('Authorization', bearer(world.keys.write));
      expect(write.status, path).toBe(200);
      expect(write.body, path).toEqual(read.body);
    }
  });

  it('[READ-13] keys carry the fixed vt_live_ prefix followed by the secret part', async () => {
    expect(API_KEY_PREFIX).toBe('vt_live_');
    for (const key of [...Object.values(world.keys), generateApiKey().key]) {
      expect(key).toMatch(/^vt_live_[0-9A-Za-z]{20,}$/);
    }
    // The whole key, prefix included, is what authenticates.
    const res = await request(harness.app).get('/v1/properties').set('Authorization', bearer(world.keys.all));
    expect(res.status).toBe(200);
  });
});

describe('[READ-14] unknown paths under /v1', () => {
  it.each([['/v1/nope'], ['/v1'], ['/v1/'], ['/v1/responses/abc/extra'], ['/v1/tasks/123'], ['/v1/sources/urls/more']])(
    '[READ-14] %s answers 404 NOT_FOUND without reading the key (no header, garbage, unknown key)',
    async (path) => {
      const readsBefore = harness.authentications();
      expectEnvelope(await request(harness.app).get(path), 404, 'NOT_FOUND');
      expectEnvelope(await request(harness.app).get(path).set('Authorization', 'garbage !!'), 404, 'NOT_FOUND');
      expectEnvelope(
        await request(harness.app).get(path).set('Authorization', bearer(generateApiKey().key)),
        404,
        'NOT_FOUND',
      );
      expectEnvelope(await request(harness.app).post(path), 404, 'NOT_FOUND');
      expect(harness.authentications()).toBe(readsBefore);
    },
  );
});

describe('[READ-15] malformed query parameters', () => {
  it.each([
    ['/v1/responses?limit=0', 'limit'],
    ['/v1/responses?limit=1001', 'limit'],
    ['/v1/responses?limit=abc', 'limit'],
    ['/v1/responses?limit=1e2', 'limit'],
    ['/v1/responses?limit=-1', 'limit'],
    ['/v1/responses?limit=5.0', 'limit'],
    ['/v1/responses?limit=', 'limit'],
    ['/v1/responses?offset=-1', 'offset'],
    ['/v1/responses?offset=abc', 'offset'],
    ['/v1/responses?from=2026-02-30', 'from'],
    ['/v1/responses?from=2026-13-01', 'from'],
    ['/v1/responses?from=2026-3-1', 'from'],
    ['/v1/responses?to=yesterday', 'to'],
    ['/v1/responses?from=2026-03-10&to=2026-03-01', 'from'],
    ['/v1/responses?mentioned=maybe', 'mentioned'],
    ['/v1/responses?mentioned=1', 'mentioned'],
    ['/v1/tasks?status=archived', 'status'],
    ['/v1/responses?propertyId=not-a-uuid', 'propertyId'],
    ['/v1/tasks?propertyId=not-a-uuid', 'propertyId'],
    ['/v1/responses?promptId=123', 'promptId'],
    ['/v1/responses?limit=1&limit=2', 'limit'],
    ['/v1/visibility?to=2026-02-29', 'to'],
    ['/v1/sources/urls?limit=0', 'limit'],
    ['/v1/properties?offset=abc', 'offset'],
  ])('[READ-15] %s → 400 INVALID_PARAM naming %s', async (path, param) => {
    const res = await request(harness.app).get(path).set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 400, 'INVALID_PARAM');
    expect(res.body.error.message).toContain(`'${param}'`);
  });

  it.each([
    ['/v1/responses?model=%00', 'model'],
    ['/v1/responses?model=chat%00gpt', 'model'],
    ['/v1/visibility?model=%00', 'model'],
    ['/v1/sources?model=%00', 'model'],
    ['/v1/sources/urls?model=%00', 'model'],
    ['/v1/sources/urls?domain=%00', 'domain'],
  ])('[READ-15] %s (a NUL byte) → 400 INVALID_PARAM naming %s, not a 500 from Postgres', async (path, param) => {
    const res = await request(harness.app).get(path).set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 400, 'INVALID_PARAM');
    expect(res.body.error.message).toContain(`'${param}'`);
  });

  const TIME_SERIES = ['/v1/responses', '/v1/visibility', '/v1/competitors', '/v1/sources', '/v1/sources/urls'];

  it.each(TIME_SERIES)(
    '[READ-15] %s?from=0000-01-01 (year 0, a day Postgres cannot store) → 400 INVALID_PARAM naming from, not 500',
    async (path) => {
      const res = await request(harness.app)
        .get(`${path}?from=0000-01-01`)
        .set('Authorization', bearer(world.keys.all));
      expectEnvelope(res, 400, 'INVALID_PARAM');
      expect(res.body.error.message).toContain("'from'");
    },
  );

  it.each(TIME_SERIES)(
    '[READ-15] %s?to=0001-01-10 (a real day whose default from falls in year 0) answers 200 or 400, never 500',
    async (path) => {
      const res = await request(harness.app).get(`${path}?to=0001-01-10`).set('Authorization', bearer(world.keys.all));
      expect(res.status).not.toBe(500);
      if (res.status === 400) expectEnvelope(res, 400, 'INVALID_PARAM');
      else expect(res.body).toMatchObject({ data: [], total: 0 });
    },
  );

  it('[READ-15] the detail endpoint never answers 400: /v1/responses/not-a-uuid?limit=abc → 404', async () => {
    const res = await request(harness.app)
      .get('/v1/responses/not-a-uuid?limit=abc&from=garbage')
      .set('Authorization', bearer(world.keys.all));
    expectEnvelope(res, 404, 'NOT_FOUND');
  });

  it('[READ-15] the detail endpoint reads no query parameter: a real id with limit=abc answers 200', async () => {
    const res = await request(harness.app)
      .get(`/v1/responses/${responseId}?limit=abc&mentioned=maybe`)
      .set('Authorization', bearer(world.keys.all));
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(responseId);
  });
});

describe('[READ-16..18, READ-33] rate limit', () => {
  const get = (app: typeof limited.app, key: string, path = '/v1/properties') =>
    request(app).get(path).set('Authorization', bearer(key));

  it('[READ-16] [READ-18] the 4th request in a minute (limit 3) → 429 RATE_LIMIT_EXCEEDED with budget headers and Retry-After', async () => {
    const key = await freshKey();
    for (let i = 0; i < 3; i++) expect((await get(limited.app, key)).status).toBe(200);
    const before = Math.floor(Date.now() / 1000);
    const res = await get(limited.app, key);
    expectEnvelope(res, 429, 'RATE_LIMIT_EXCEEDED');
    expect(res.headers['x-ratelimit-limit']).toBe('3');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    const reset = Number(res.headers['x-ratelimit-reset']);
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(before);
    expect(reset).toBeLessThanOrEqual(before + 61);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Retry-After is the seconds until the reset.
    expect(Math.abs(before + retryAfter - reset)).toBeLessThanOrEqual(2);
    // Still refused on another endpoint: the budget is per key, not per path.
    expectEnvelope(await get(limited.app, key, '/v1/tasks'), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('[READ-17] X-RateLimit-Remaining counts down on 200s; X-RateLimit-Reset is a Unix time (s) within the next 60 s', async () => {
    const key = await freshKey();
    const remaining: string[] = [];
    const resets: number[] = [];
    for (let i = 0; i < 3; i++) {
      const nowSeconds = Date.now() / 1000;
      const res = await get(limited.app, key);
      // The window may start after `nowSeconds` (in a later second): the bound is read after the answer.
      const answeredSeconds = Date.now() / 1000;
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      remaining.push(String(res.headers['x-ratelimit-remaining']));
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      expect(reset).toBeGreaterThan(nowSeconds);
      expect(reset).toBeLessThanOrEqual(Math.ceil(answeredSeconds) + 60);
      resets.push(reset);
      expect(res.headers['retry-after']).toBeUndefined();
    }
    expect(remaining).toEqual(['2', '1', '0']);
    // One fixed window: the reset does not move as the budget is spent.
    expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(1);
  });

  it('[READ-16] the budget is per key: another key still gets 200 when one is exhausted', async () => {
    const spent = await freshKey();
    const other = await freshKey();
    for (let i = 0; i < 3; i++) await get(limited.app, spent);
    expect((await get(limited.app, spent)).status).toBe(429);
    const res = await get(limited.app, other);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('[READ-16] the budget is shared by two app instances on the same Redis prefix', async () => {
    const key = await freshKey();
    expect((await get(limited.app, key)).headers['x-ratelimit-remaining']).toBe('2');
    expect((await get(limitedReplica.app, key)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await get(limited.app, key)).headers['x-ratelimit-remaining']).toBe('0');
    expectEnvelope(await get(limitedReplica.app, key), 429, 'RATE_LIMIT_EXCEEDED');
    expectEnvelope(await get(limited.app, key), 429, 'RATE_LIMIT_EXCEEDED');
  });

  it('[READ-17] [READ-33] no budget headers on 400, 401, 404 (unknown path and detail miss), 405 or OPTIONS 204', async () => {
    const key = await freshKey();
    const answers = [
      [400, await get(limited.app, key, '/v1/responses?limit=0')],
      [401, await request(limited.app).get('/v1/responses')],
      [401, await request(limited.app).get('/v1/responses').set('Authorization', 'Basic x')],
      [401, await get(limited.app, generateApiKey().key)],
      [401, await get(limited.app, world.keys.revoked)],
      [404, await get(limited.app, key, '/v1/no-such-endpoint')],
      [404, await get(limited.app, key, '/v1/responses/00000000-0000-4000-8000-000000000000')],
      [404, await get(limited.app, key, '/v1/responses/not-a-uuid')],
      [405, await request(limited.app).post('/v1/responses').set('Authorization', bearer(key))],
      [204, await request(limited.app).options('/v1/responses').set('Authorization', bearer(key))],
    ] as const;
    for (const [status, res] of answers) {
      expect(res.status).toBe(status);
      expectNoBudgetHeaders(res);
    }
  });

  it('[READ-33] 400, 401, 405 and OPTIONS do not consume the budget (documented); a detail-miss 404 does (documented)', async () => {
    const key = await freshKey();
    for (let i = 0; i < 4; i++) {
      expect((await get(limited.app, key, '/v1/responses?limit=abc')).status).toBe(400);
      expect((await request(limited.app).get('/v1/responses').set('Authorization', `Token ${key}`)).status).toBe(401);
      expect((await request(limited.app).delete('/v1/responses').set('Authorization', bearer(key))).status).toBe(405);
      expect((await request(limited.app).options('/v1/responses').set('Authorization', bearer(key))).status).toBe(204);
    }
    const first = await get(limited.app, key);
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('2');

    const miss = await get(limited.app, key, '/v1/responses/00000000-0000-4000-8000-000000000000');
    expect(miss.status).toBe(404);
    const next = await get(limited.app, key);
    expect(next.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('[READ-16] with the configured default (100 per minute) the 101st request of a key → 429', async () => {
    const key = await freshKey();
    for (let i = 1; i <= 100; i++) {
      const res = await get(defaultBudget.app, key);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(100 - i));
    }
    const over = await get(defaultBudget.app, key);
    expectEnvelope(over, 429, 'RATE_LIMIT_EXCEEDED');
    expect(over.headers['x-ratelimit-limit']).toBe('100');
  });
});

describe('[READ-19] paging defaults', () => {
  it('[READ-19] limit defaults to 100: a list with more than 100 rows returns 100', async () => {
    const res = await request(harness.app).get('/v1/responses').set('Authorization', bearer(world.keys.all));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(240);
    expect(res.body.data).toHaveLength(100);
  });

  it('[READ-19] limit=1000 (the maximum) is accepted and returns every row up to it', async () => {
    const res = await request(harness.app).get('/v1/responses?limit=1000').set('Authorization', bearer(world.keys.all));
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(240);
    expect(res.body.total).toBe(240);
  });

  it('[READ-19] every list endpoint accepts limit=1000 and offset=0', async () => {
    for (const endpoint of catalogue.filter((e) => e.shape === 'list')) {
      const res = await request(harness.app)
        .get(`${endpoint.path}?limit=1000&offset=0`)
        .set('Authorization', bearer(world.keys.all));
      expect(res.status, endpoint.path).toBe(200);
    }
  });

  it('[READ-19] offset defaults to 0', async () => {
    const ids = (res: request.Response) => res.body.data.map((row: { id: string }) => row.id);
    const all = await request(harness.app).get('/v1/responses?limit=1000').set('Authorization', bearer(world.keys.all));
    const byDefault = await request(harness.app)
      .get('/v1/responses?limit=10')
      .set('Authorization', bearer(world.keys.all));
    const zero = await request(harness.app)
      .get('/v1/responses?limit=10&offset=0')
      .set('Authorization', bearer(world.keys.all));
    const shifted = await request(harness.app)
      .get('/v1/responses?limit=10&offset=100')
      .set('Authorization', bearer(world.keys.all));
    expect(ids(byDefault)).toEqual(ids(all).slice(0, 10));
    expect(ids(zero)).toEqual(ids(byDefault));
    expect(ids(shifted)).toEqual(ids(all).slice(100, 110));
  });
});

describe('[READ-31] deprecation headers', () => {
  it('[READ-31] no catalogued endpoint sends Deprecation or Sunset, on 200 or on an error', async () => {
    for (const endpoint of catalogue) {
      const path = concretePath(endpoint.path);
      const ok = await request(harness.app).get(path).set('Authorization', bearer(world.keys.all));
      expect(ok.status, path).toBe(200);
      expectNoDeprecationHeaders(ok);
      expectNoDeprecationHeaders(await request(harness.app).head(path).set('Authorization', bearer(world.keys.all)));
      expectNoDeprecationHeaders(await request(harness.app).get(path));
    }
    const spec = await request(harness.app).get('/openapi.json');
    const operations = Object.values(spec.body.paths as Record<string, Record<string, { deprecated?: boolean }>>);
    expect(operations.length).toBe(catalogue.length);
    for (const pathItem of operations) expect(pathItem.get?.deprecated).toBeUndefined();
  });

  it('[READ-31] a deprecated endpoint sends Deprecation: @<unix seconds> and Sunset: <HTTP-date> on its 200', async () => {
    const key = await freshKey();
    const res = await request(extended.app).get('/v1/legacy-things').set('Authorization', bearer(key));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], total: 0 });
    expect(res.headers.deprecation).toBe(EXPECTED_DEPRECATION);
    expect(res.headers.sunset).toBe(EXPECTED_SUNSET);
    // The budget headers are there as on any 200.
    expect(res.headers['x-ratelimit-limit']).toBe('2');
  });

  it('[READ-31] HEAD on a deprecated endpoint carries the same Deprecation and Sunset as its GET', async () => {
    const key = await freshKey();
    const res = await request(extended.app).head('/v1/legacy-things').set('Authorization', bearer(key));
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toBe(EXPECTED_DEPRECATION);
    expect(res.headers.sunset).toBe(EXPECTED_SUNSET);
  });

  it('[READ-31] the deprecated endpoint’s 401, 400 and 429 carry neither Deprecation nor Sunset', async () => {
    const unauthenticated = await request(extended.app).get('/v1/legacy-things');
    expectEnvelope(unauthenticated, 401, 'MISSING_AUTH');
    expectNoDeprecationHeaders(unauthenticated);

    const key = await freshKey();
    const invalid = await request(extended.app).get('/v1/legacy-things?limit=0').set('Authorization', bearer(key));
    expectEnvelope(invalid, 400, 'INVALID_PARAM');
    expectNoDeprecationHeaders(invalid);

    for (let i = 0; i < 2; i++) {
      const ok = await request(extended.app).get('/v1/legacy-things').set('Authorization', bearer(key));
      expect(ok.headers.deprecation).toBe(EXPECTED_DEPRECATION);
    }
    const limitedOut = await request(extended.app).get('/v1/legacy-things').set('Authorization', bearer(key));
    expectEnvelope(limitedOut, 429, 'RATE_LIMIT_EXCEEDED');
    expectNoDeprecationHeaders(limitedOut);

    const wrongMethod = await request(extended.app).put('/v1/legacy-things').set('Authorization', bearer(key));
    expectEnvelope(wrongMethod, 405, 'METHOD_NOT_ALLOWED');
    expectNoDeprecationHeaders(wrongMethod);
  });

  it('[READ-31] the OpenAPI document marks the deprecated endpoint deprecated: true, and only it', async () => {
    const res = await request(extended.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.paths['/v1/legacy-things'].get.deprecated).toBe(true);
    expect(res.body.paths['/v1/broken-things'].get.deprecated).toBeUndefined();
    expect(res.body.paths['/v1/responses'].get.deprecated).toBeUndefined();
  });

  it('[READ-31] defineReadEndpoint refuses a sunset less than 90 days after the deprecation, and takes exactly 90', () => {
    const base = { ...legacyEndpoint, deprecation: undefined };
    const deprecatedAt = new Date('2026-01-01T00:00:00Z');
    const day = 86_400_000;
    expect(() =>
      defineReadEndpoint({
        ...base,
        deprecation: { deprecatedAt, sunsetAt: new Date(deprecatedAt.getTime() + 89 * day) },
      }),
    ).toThrow(/90 days/);
    expect(() =>
      defineReadEndpoint({
        ...base,
        deprecation: { deprecatedAt, sunsetAt: new Date(deprecatedAt.getTime() + 90 * day - 1000) },
      }),
    ).toThrow(/90 days/);
    expect(() =>
      defineReadEndpoint({ ...base, deprecation: { deprecatedAt, sunsetAt: new Date(deprecatedAt.getTime() - day) } }),
    ).toThrow(/90 days/);
    expect(() =>
      defineReadEndpoint({
        ...base,
        deprecation: { deprecatedAt, sunsetAt: new Date(deprecatedAt.getTime() + 90 * day) },
      }),
    ).not.toThrow();
  });
});

describe('[READ-32] unknown query parameters', () => {
  it('[READ-32] unknown query parameters are ignored: 200 with the same answer as without them', async () => {
    for (const path of ['/v1/responses?limit=5', '/v1/tasks?limit=5', '/v1/properties?limit=5']) {
      const plain = await request(harness.app).get(path).set('Authorization', bearer(world.keys.all));
      const extra = await request(harness.app)
        .get(`${path}&utm_source=newsletter&sort=desc&fields=id&limit_=abc`)
        .set('Authorization', bearer(world.keys.all));
      expect(extra.status, path).toBe(200);
      expect(extra.body, path).toEqual(plain.body);
    }
  });
});

describe('server errors', () => {
  it('[READ-5] [READ-33] a failing database answers 500 INTERNAL_ERROR: envelope only, no stack trace, no budget headers', async () => {
    const key = await freshKey();
    const res = await request(extended.app).get('/v1/broken-things').set('Authorization', bearer(key));
    expectEnvelope(res, 500, 'INTERNAL_ERROR');
    expectNoBudgetHeaders(res);
    expectNoDeprecationHeaders(res);
    expect(res.text).not.toMatch(/read_api_protocol_test_no_such_table|\bat .+:\d+:\d+|stack|prisma|Error:/i);
  });
});

describe('protocol with the answer cache on', () => {
  it('[READ-17] a cached answer is still counted: X-RateLimit-Remaining keeps counting down', async () => {
    const key = await freshKey();
    const first = await request(cached.app).get('/v1/properties').set('Authorization', bearer(key));
    const second = await request(cached.app).get('/v1/properties').set('Authorization', bearer(key));
    expect(second.body).toEqual(first.body);
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
  });

  it('[READ-2] HEAD of a cached answer has the GET’s content-type and content-length', async () => {
    const get = await request(cached.app)
      .get('/v1/responses?limit=7')
      .set('Authorization', bearer(world.keys.all))
      .set('Accept-Encoding', 'gzip');
    const head = await request(cached.app)
      .head('/v1/responses?limit=7')
      .set('Authorization', bearer(world.keys.all))
      .set('Accept-Encoding', 'gzip');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it('[READ-12] a revoked key is refused even though its answer is cached', async () => {
    const key = await freshKey();
    expect((await request(cached.app).get('/v1/tasks').set('Authorization', bearer(key))).status).toBe(200);
    await harness.db.apiKey.updateMany({ where: { keyHash: hashApiKey(key) }, data: { revokedAt: new Date() } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expectEnvelope(await request(cached.app).get('/v1/tasks').set('Authorization', bearer(key)), 401, 'INVALID_KEY');
  });

  it('[READ-31] [READ-33] a cached deprecated answer keeps Deprecation and Sunset; a repeated detail miss stays a bare 404', async () => {
    for (let i = 0; i < 2; i++) {
      const ok = await request(cached.app).get('/v1/legacy-things').set('Authorization', bearer(world.keys.all));
      expect(ok.status).toBe(200);
      expect(ok.headers.deprecation).toBe(EXPECTED_DEPRECATION);
      expect(ok.headers.sunset).toBe(EXPECTED_SUNSET);
      const miss = await request(cached.app)
        .get('/v1/responses/00000000-0000-4000-8000-000000000000')
        .set('Authorization', bearer(world.keys.all));
      expectEnvelope(miss, 404, 'NOT_FOUND');
      expectNoBudgetHeaders(miss);
    }
  });

  it('[READ-5] a failing operation is not cached: every attempt answers 500 INTERNAL_ERROR', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await request(cached.app).get('/v1/broken-things').set('Authorization', bearer(world.keys.all));
      expectEnvelope(res, 500, 'INTERNAL_ERROR');
      expectNoBudgetHeaders(res);
    }
  });
});
