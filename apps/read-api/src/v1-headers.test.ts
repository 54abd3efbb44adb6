import { Writable } from 'node:stream';
import { defineReadEndpoint, pagingParams, READ_API_AUTH_CHALLENGES, type ReadEndpoint } from '@vt/contracts';
import { createLogger } from '@vt/logger';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';

// The headers every /v1 answer carries beyond the spec's: `WWW-Authenticate` on a 401,
// `X-Request-Id` on everything (also in the log lines), and a GET answered in full to conditional
// headers that name no ETag it gave.

const NOW = new Date('2026-03-15T12:00:00Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const logLines: Record<string, unknown>[] = [];
const logger = createLogger({
  name: 'read-api',
  level: 'info',
  destination: new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  }),
});

// A test-only endpoint whose operation fails like a database that refuses the query.
const failing = defineReadEndpoint({
  operationId: 'listFailingThings',
  tag: 'Tasks',
  path: '/v1/failing-things',
  summary: 'Failing things (test only)',
  description: 'Its operation throws.',
  shape: 'list',
  query: z.object({ ...pagingParams }),
  item: z.object({ id: z.string() }),
});

const harness = createReadApiHarness({
  now: NOW,
  logger,
  extraRoutes: [
    {
      endpoint: failing as ReadEndpoint,
      operation: async () => {
        throw new Error('the database refused the query');
      },
    },
  ],
});
const limited = createReadApiHarness({ now: NOW, rateLimitPerMinute: 1 });
let world: ReadWorld;

beforeAll(async () => {
  world = await seedReadWorld(harness.db, NOW);
  await limited.redisReady();
}, 60_000);
afterAll(async () => {
  await harness.close();
  await limited.close();
});

const get = (path: string, key?: string) => {
  const req = request(harness.app).get(path);
  return key === undefined ? req : req.set('Authorization', `Bearer ${key}`);
};

async function logLineOf(requestId: string, msg = 'request answered') {
  for (let i = 0; i < 50; i++) {
    const line = logLines.find((l) => l.requestId === requestId && l.msg === msg);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no "${msg}" line for ${requestId}`);
}

describe('WWW-Authenticate', () => {
  it('[READ-10] a missing Authorization answers 401 MISSING_AUTH with the bare Bearer challenge', async () => {
    const res = await get('/v1/tasks');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('MISSING_AUTH');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="read-api"');
  });

  it('[READ-11] an Authorization that is not `Bearer <key>` answers 401 INVALID_AUTH with error="invalid_request"', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', `Bearer  ${world.keys.all}`, world.keys.all]) {
      const res = await request(harness.app).get('/v1/properties').set('Authorization', header);
      expect(res.status, header).toBe(401);
      expect(res.body.error.code).toBe('INVALID_AUTH');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="read-api", error="invalid_request"');
    }
  });

  it('[READ-12] a malformed, unknown or revoked key answers 401 INVALID_KEY with error="invalid_token"', async () => {
    // The last character changed (to another: a random key may already end in x).
    const altered = `${world.keys.all.slice(0, -1)}${world.keys.all.endsWith('x') ? 'y' : 'x'}`;
    for (const key of ['vt_live_nope', world.keys.revoked, altered]) {
      const res = await get(`/v1/responses/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, key);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_KEY');
      expect(res.headers['www-authenticate']).toBe(READ_API_AUTH_CHALLENGES.INVALID_KEY);
    }
  });

  it('is on no answer but a 401', async () => {
    const answers = await Promise.all([
      get('/v1/tasks', world.keys.all),
      get('/v1/tasks?limit=0', world.keys.all),
      get('/v1/nothing-here'),
      request(harness.app).delete('/v1/tasks'),
      request(harness.app).options('/v1/tasks'),
      get('/openapi.json'),
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 400, 404, 405, 204, 200]);
    for (const res of answers) expect(res.headers['www-authenticate'], String(res.status)).toBeUndefined();
  });
});

describe('X-Request-Id', () => {
  it('is on every answer of the read API, whatever its status, minted when the request has none', async () => {
    const limitedSend = () =>
      request(limited.app).get('/v1/properties').set('Authorization', `Bearer ${world.keys.all}`);
    let tooMany = await limitedSend();
    for (let attempt = 0; attempt < 2 && tooMany.status !== 429; attempt++) tooMany = await limitedSend();
    const answers = {
      200: await get('/v1/tasks', world.keys.all),
      '200 HEAD': await request(harness.app).head('/v1/tasks').set('Authorization', `Bearer ${world.keys.all}`),
      '200 document': await get('/openapi.json'),
      '200 docs': await get('/docs'),
      '200 healthz': await get('/healthz'),
      204: await request(harness.app).options('/v1/tasks'),
      400: await get('/v1/responses?mentioned=maybe', world.keys.all),
      401: await get('/v1/tasks'),
      '404 path': await get('/v1/nothing-here'),
      '404 id': await get(`/v1/responses/${world.properties.growth.id}`, world.keys.all),
      405: await request(harness.app).post('/v1/tasks'),
      429: tooMany,
      500: await get('/v1/failing-things', world.keys.all),
    };
    const ids = new Set<string>();
    for (const [label, res] of Object.entries(answers)) {
      expect(res.status, label).toBe(Number.parseInt(label, 10));
      expect(res.headers['x-request-id'], label).toMatch(UUID);
      ids.add(String(res.headers['x-request-id']));
    }
    expect(ids.size).toBe(Object.keys(answers).length);
  });

  it('echoes an acceptable X-Request-Id and replaces one that is not', async () => {
    const mine = await get('/v1/tasks', world.keys.all).set('X-Request-Id', 'client-7f3a.42');
    expect(mine.headers['x-request-id']).toBe('client-7f3a.42');
    const unsafe = await get('/v1/tasks', world.keys.all).set('X-Request-Id', 'has spaces "and quotes"');
    expect(unsafe.headers['x-request-id']).toMatch(UUID);
    const long = await get('/v1/tasks', world.keys.all).set('X-Request-Id', 'a'.repeat(129));
    expect(long.headers['x-request-id']).toMatch(UUID);
  });

  it('names the request in its log line, and in the error line of a failure', async () => {
    const ok = await get('/v1/tasks?status=todo', world.keys.all).set('X-Request-Id', 'trace-ok-1');
    expect(ok.status).toBe(200);
    expect(await logLineOf('trace-ok-1')).toMatchObject({
      level: 'info',
      app: 'read-api',
      method: 'GET',
      path: '/v1/tasks',
      status: 200,
    });

    const refused = await get('/v1/tasks').set('X-Request-Id', 'trace-401');
    expect(await logLineOf('trace-401')).toMatchObject({ level: 'warn', status: 401 });
    expect(JSON.stringify(logLines)).not.toContain(world.keys.all);
    expect(refused.headers['x-request-id']).toBe('trace-401');

    const failed = await get('/v1/failing-things', world.keys.all).set('X-Request-Id', 'trace-500');
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    const errorLine = await logLineOf('trace-500', 'read api request failed');
    expect(errorLine).toMatchObject({ level: 'error', err: { message: 'the database refused the query' } });
    expect(await logLineOf('trace-500')).toMatchObject({ level: 'error', status: 500 });
  });
});

describe('conditional requests', () => {
  it('[READ-17] If-None-Match: * or an ETag this API never gave gets the full 200 with its budget headers', async () => {
    // Only an ETag the API handed out turns an answer into a 304 (v1-http-conventions.test.ts).
    for (const precondition of ['*', '"anything"', 'W/"x", *']) {
      const res = await get('/v1/tasks', world.keys.all).set('If-None-Match', precondition);
      expect(res.status, precondition).toBe(200);
      expect(res.body.total).toBe(3);
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers.etag).toMatch(/^W\//);
    }
    const head = await request(harness.app)
      .head('/v1/tasks')
      .set('Authorization', `Bearer ${world.keys.all}`)
      .set('If-None-Match', '*');
    expect(head.status).toBe(200);
    const later = new Date(NOW.getTime() + 86_400_000).toUTCString();
    const sinceTomorrow = await get('/v1/properties', world.keys.all).set('If-Modified-Since', later);
    expect(sinceTomorrow.status).toBe(200);
    expect(sinceTomorrow.body.total).toBe(2);
  });

  it('[READ-30] /openapi.json is answered in full to If-None-Match: * too', async () => {
    const res = await get('/openapi.json').set('If-None-Match', '*');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
  });
});
