import { once } from 'node:events';
import { readEndpoints } from '@vt/contracts';
import { sqlReaderOf } from '@vt/db';
import { createLogger } from '@vt/logger';
import { createProducerConnection } from '@vt/redis';
import { createMetricsRegistry, pingPostgres, pingRedis, type ReadinessCheck } from '@vt/service-runtime';
import { expectSecurityHeaders, isolatedQueuePrefix } from '@vt/test-support';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createAnswerCache } from './answer-cache.ts';
import { createApiKeyAuthenticator } from './api-key-auth.ts';
import { buildReadApi } from './app.ts';
import { v1Routes } from './endpoints/index.ts';
import { createReadRateLimiter } from './rate-limiter.ts';
import { createReadApiHarness } from './testing/index.ts';

// The parts of the read API app around /v1: liveness, readiness, metrics, the docs page and the
// specification document it renders. /v1 itself is covered by v1-protocol, v1-scope, v1-list-rules and endpoints/*.test.ts.

const harness = createReadApiHarness();
/** A Redis nobody listens on: its ping fails at once (no offline queue). */
const deadRedis = createProducerConnection({ redisUrl: 'redis://127.0.0.1:1', onError: () => {} });
const logger = createLogger({ name: 'read-api', level: 'silent' });

afterAll(async () => {
  deadRedis.disconnect();
  await harness.close();
});

/** The real app with chosen readiness checks and shutdown state. */
function appWith(checks: ReadinessCheck[], closing = false) {
  return buildReadApi({
    logger,
    registry: createMetricsRegistry('read-api'),
    readinessChecks: checks,
    isClosing: () => closing,
    routes: v1Routes(sqlReaderOf(harness.db)),
    authenticator: createApiKeyAuthenticator(harness.db, { cacheTtlMs: 1 }),
    answerCache: createAnswerCache({ ttlMs: 0, maxBytes: 1024 * 1024 }),
    rateLimiter: createReadRateLimiter({
      redis: harness.redis,
      keyPrefix: isolatedQueuePrefix(),
      limitPerMinute: 100,
    }),
    now: () => new Date(),
  });
}

describe('health', () => {
  it('sends security headers on every answer: the document, its reference page and a rejection', async () => {
    for (const path of ['/openapi.json', '/docs', '/v1/responses']) {
      const res = await request(harness.app).get(path);
      expectSecurityHeaders(res.headers);
    }
  });

  it('GET /healthz answers 200 {status: ok} without an API key', async () => {
    const res = await request(harness.app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 ready when Postgres and Redis answer', async () => {
    // The harness's producer connection fails fast while it still connects (no offline queue), as
    // a starting replica does: on a loaded machine it may not be up yet when this test starts.
    if (harness.redis.status !== 'ready') await once(harness.redis, 'ready');
    const app = appWith([
      { name: 'postgres', check: pingPostgres(harness.db) },
      { name: 'redis', check: pingRedis(harness.redis) },
    ]);
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('GET /readyz answers 503 not_ready naming the dependency that does not answer', async () => {
    const app = appWith([
      { name: 'postgres', check: pingPostgres(harness.db) },
      { name: 'redis', check: pingRedis(deadRedis) },
    ]);
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', checks: { postgres: 'ok', redis: 'unavailable' } });
  });

  it('GET /readyz answers 503 closing once shutdown has begun, and /healthz stays 200', async () => {
    const app = appWith([{ name: 'postgres', check: pingPostgres(harness.db) }], true);
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'closing' });
    expect((await request(app).get('/healthz')).status).toBe(200);
  });

  it('GET /metrics exposes Prometheus text with the read request counter by operation and status', async () => {
    const app = appWith([]);
    expect((await request(app).get('/v1/tasks')).status).toBe(401);
    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/vt_read_requests_total\{[^}]*operation="listTasks"[^}]*status="401"[^}]*\} 1/);
    expect(res.text).toContain('vt_read_request_duration_seconds_bucket');
  });
});

describe('docs', () => {
  it('GET /docs serves the Swagger UI page, with local assets and no API key', async () => {
    const res = await request(harness.app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<div id="reference"></div>');
    for (const asset of ['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/reference.js']) {
      expect(res.text).toContain(asset);
    }
  });

  it('the docs page boots Swagger UI on /openapi.json', async () => {
    const res = await request(harness.app).get('/docs/reference.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(res.text).toContain('url: "/openapi.json"');
  });

  it('the Swagger UI assets are served from the installed package (no internet needed)', async () => {
    const js = await request(harness.app).get('/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.text.length).toBeGreaterThan(100_000);
    const css = await request(harness.app).get('/docs/assets/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('a missing docs asset answers the JSON 404 envelope, not an HTML page', async () => {
    const res = await request(harness.app).get('/docs/assets/no-such-file.js');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('GET /openapi.json, which the page renders, is an OpenAPI 3.1 document of every catalogued path, with CORS *', async () => {
    const res = await request(harness.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths).sort()).toEqual(
      Object.values(readEndpoints)
        .map((e) => e.path)
        .sort(),
    );
  });
});
