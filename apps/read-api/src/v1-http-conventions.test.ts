import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseConfig, readApiConfigSchema } from '@vt/config';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_FROM_BYTES } from './conditional-answer.ts';
import { PREFLIGHT_MAX_AGE_SECONDS } from './cross-origin.ts';
import { createReadApiHarness, type ReadWorld, rawRequest, seedReadWorld } from './testing/index.ts';

// Issue 31 items 2-4: what HTTP clients expect of /v1 beyond the spec's envelope. Compressed
// answers, ETag and If-None-Match, and CORS for the origins a deployment lists.

const NOW = new Date('2026-03-15T12:00:00Z');
const ALLOWED = 'https://bi.example.com';
const harness = createReadApiHarness({ now: NOW });
const cors = createReadApiHarness({ now: NOW, corsOrigins: [ALLOWED, 'http://localhost:5173'] });
const cached = createReadApiHarness({ now: NOW, answerCacheTtlMs: 60_000 });
let world: ReadWorld;
let auth: Record<string, string>;

beforeAll(async () => {
  world = await seedReadWorld(harness.db, NOW);
  auth = { Authorization: `Bearer ${world.keys.all}` };
}, 60_000);
afterAll(async () => {
  await Promise.all([harness.close(), cors.close(), cached.close()]);
});

describe('compression', () => {
  it('gzips a page over the threshold for a client that accepts gzip, with the same JSON and fewer bytes', async () => {
    const plain = await rawRequest(harness.app, '/v1/responses?limit=100', { headers: auth });
    const zipped = await rawRequest(harness.app, '/v1/responses?limit=100', {
      headers: { ...auth, 'Accept-Encoding': 'gzip, deflate' },
    });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(COMPRESS_FROM_BYTES);
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.bytes.length);
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(JSON.parse(gunzipSync(zipped.bytes).toString())).toEqual(JSON.parse(plain.bytes.toString()));
    // The budget is still reported on a compressed 200 (READ-17).
    expect(zipped.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });

  it('answers br to a client that prefers it, and follows q-values', async () => {
    const br = await rawRequest(harness.app, '/v1/responses', { headers: { ...auth, 'Accept-Encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString()).data).toHaveLength(100);
    const weighted = await rawRequest(harness.app, '/v1/responses', {
      headers: { ...auth, 'Accept-Encoding': 'br;q=0.1, gzip;q=0.9' },
    });
    expect(weighted.headers['content-encoding']).toBe('gzip');
    const refused = await rawRequest(harness.app, '/v1/responses', {
      headers: { ...auth, 'Accept-Encoding': 'gzip;q=0, br;q=0' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.bytes.toString()).data).toHaveLength(100);
  });

  it('sends an answer under the threshold as it is', async () => {
    const small = await rawRequest(harness.app, '/v1/properties?limit=1', {
      headers: { ...auth, 'Accept-Encoding': 'gzip, br' },
    });
    expect(small.status).toBe(200);
    expect(small.bytes.length).toBeLessThan(COMPRESS_FROM_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString()).data).toHaveLength(1);
  });

  it('[READ-2] HEAD reports the GET’s Content-Encoding and Content-Length', async () => {
    const headers = { ...auth, 'Accept-Encoding': 'gzip' };
    const get = await rawRequest(cached.app, '/v1/responses?limit=50', { headers });
    const head = await rawRequest(cached.app, '/v1/responses?limit=50', { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.bytes.length).toBe(0);
  });

  it('[READ-5] an error stays a small uncompressed JSON envelope', async () => {
    const res = await rawRequest(harness.app, '/v1/responses?limit=0', {
      headers: { ...auth, 'Accept-Encoding': 'gzip' },
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.bytes.toString()).error.code).toBe('INVALID_PARAM');
  });
});

describe('ETag and If-None-Match', () => {
  const get = (app: typeof harness.app, path: string, key = world.keys.all) =>
    request(app).get(path).set('Authorization', `Bearer ${key}`);

  it('a 200 carries a weak ETag and Cache-Control: private; sending it back answers 304 with no body and no budget headers', async () => {
    const first = await get(harness.app, '/v1/tasks');
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await get(harness.app, '/v1/tasks').set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    // [READ-17] budget headers only on 200 and 429.
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(again.headers[name], name).toBeUndefined();
    }
    // One ETag among several, and the strong form of a weak one, still match (weak comparison).
    const listed = await get(harness.app, '/v1/tasks').set('If-None-Match', `"other", ${first.headers.etag}`);
    expect(listed.status).toBe(304);
    const strong = (first.headers.etag as string).replace(/^W\//, '');
    expect((await get(harness.app, '/v1/tasks').set('If-None-Match', strong)).status).toBe(304);
  });

  it('the ETag names the query and the key’s scope: another page or another scope answers 200', async () => {
    const five = await get(harness.app, '/v1/responses?limit=5');
    const six = await get(harness.app, '/v1/responses?limit=6').set('If-None-Match', five.headers.etag as string);
    expect(six.status).toBe(200);
    expect(six.headers.etag).not.toBe(five.headers.etag);
    // The same query in another order is the same answer: the query is normalised.
    const reordered = await get(harness.app, '/v1/responses?mentioned=true&limit=5');
    const same = await get(harness.app, '/v1/responses?limit=5&mentioned=true');
    expect(same.headers.etag).toBe(reordered.headers.etag);
    const scoped = await get(harness.app, '/v1/properties', world.keys.scoped);
    const all = await get(harness.app, '/v1/properties').set('If-None-Match', scoped.headers.etag as string);
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThan(scoped.body.total);
  });

  it('a change to the rows changes the ETag: the old one answers 200 with the new rows', async () => {
    const before = await get(harness.app, '/v1/tasks');
    await harness.db.task.create({
      data: { propertyId: world.properties.growth.id, title: 'etag check', reviewState: 'accepted' },
    });
    const after = await get(harness.app, '/v1/tasks').set('If-None-Match', before.headers.etag as string);
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(before.body.total + 1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('a gzip and a plain answer share one ETag, and a cached answer keeps it', async () => {
    const plain = await rawRequest(cached.app, '/v1/responses', {
      headers: { Authorization: `Bearer ${world.keys.all}` },
    });
    const zipped = await rawRequest(cached.app, '/v1/responses', {
      headers: { Authorization: `Bearer ${world.keys.all}`, 'Accept-Encoding': 'gzip' },
    });
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    const revalidated = await rawRequest(cached.app, '/v1/responses', {
      headers: {
        Authorization: `Bearer ${world.keys.all}`,
        'Accept-Encoding': 'gzip',
        'If-None-Match': String(plain.headers.etag),
      },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.bytes.length).toBe(0);
  });

  it('a detail answer has its own ETag and revalidates too; a 404 has none', async () => {
    const list = await get(harness.app, '/v1/responses?limit=1');
    const path = `/v1/responses/${list.body.data[0].id}`;
    const detail = await get(harness.app, path);
    expect(detail.headers.etag).toMatch(/^W\//);
    expect((await get(harness.app, path).set('If-None-Match', detail.headers.etag as string)).status).toBe(304);
    const missing = await get(harness.app, '/v1/responses/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });
});

describe('CORS, per deployment (READ_API_CORS_ORIGINS)', () => {
  const preflight = (app: typeof harness.app, origin: string) =>
    request(app)
      .options('/v1/responses')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');

  it('[READ-3] a preflight from a listed origin answers 204 with Allow and the Access-Control-Allow-* headers', async () => {
    const res = await preflight(cors.app, ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toMatch(/\bAuthorization\b/);
    expect(res.headers['access-control-max-age']).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('[READ-3] a preflight from another origin answers 204 with Allow and no Access-Control-* header', async () => {
    const res = await preflight(cors.app, 'https://evil.example.com');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('answers from a listed origin, errors included, say so and expose the paging, cache and budget headers', async () => {
    const ok = await request(cors.app)
      .get('/v1/tasks')
      .set('Origin', ALLOWED)
      .set('Authorization', `Bearer ${world.keys.all}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(ok.headers['access-control-expose-headers']).toMatch(/ETag.*Link.*X-RateLimit-Remaining/);
    const refused = await request(cors.app).get('/v1/tasks').set('Origin', 'http://localhost:5173');
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const other = await request(cors.app)
      .get('/v1/tasks')
      .set('Origin', 'https://bi.example.com.evil.test')
      .set('Authorization', `Bearer ${world.keys.all}`);
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('is off by default: no origin gets an Access-Control-* header from /v1', async () => {
    const res = await preflight(harness.app, ALLOWED);
    expect(res.status).toBe(204);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const get = await request(harness.app)
      .get('/v1/tasks')
      .set('Origin', ALLOWED)
      .set('Authorization', `Bearer ${world.keys.all}`);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    // [READ-30] the document stays readable from anywhere.
    expect((await request(harness.app).get('/openapi.json')).headers['access-control-allow-origin']).toBe('*');
  });

  it('READ_API_CORS_ORIGINS is a comma list of exact origins, empty by default; a path or * stops the app', () => {
    expect(parseConfig('read-api', readApiConfigSchema, {}).READ_API_CORS_ORIGINS).toEqual([]);
    expect(
      parseConfig('read-api', readApiConfigSchema, {
        READ_API_CORS_ORIGINS: 'https://bi.example.com, http://localhost:5173',
      }).READ_API_CORS_ORIGINS,
    ).toEqual(['https://bi.example.com', 'http://localhost:5173']);
    for (const bad of ['*', 'https://bi.example.com/app', 'bi.example.com', 'ftp://x.example']) {
      expect(() => parseConfig('read-api', readApiConfigSchema, { READ_API_CORS_ORIGINS: bad }), bad).toThrow(
        /READ_API_CORS_ORIGINS/,
      );
    }
  });
});
