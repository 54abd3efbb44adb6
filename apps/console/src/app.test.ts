import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import {
  buildConsoleOpenApiDocument,
  CONSOLE_ERROR_STATUS,
  type ConsoleEndpoint,
  consoleEndpoints,
} from '@vt/contracts/console';
import { expectSecurityHeaders } from '@vt/test-support';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from './testing/index.ts';

// The console app around its operations: the JSON error envelope for every way a request can be
// wrong (unknown path, wrong method, bad JSON, oversized or non-JSON body, bad path id), health
// and metrics, and the OpenAPI document (generated from the catalogue, served, linted by Redocly).

// Every catalogued operation mounted: the per-property webhook secret rotation is one only a
// deployment's WEBHOOK_SECRET_ROTATION=property mounts.
const h = createConsoleHarness({ connection: { webhookSecretRotation: 'property' } });
afterAll(() => h.close());

const endpoints = Object.values(consoleEndpoints) as ConsoleEndpoint[];
/** `/api/properties/{id}` with every id filled in with a UUID nobody has. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');

describe('console app', () => {
  it('sends security headers on every answer: the API, its reference page and a rejection', async () => {
    for (const path of ['/api/openapi.json', '/api/docs', '/api/me']) {
      const res = await request(h.app).get(path);
      expectSecurityHeaders(res.headers);
      // A team's https logo may show; nothing else widens.
      expect(res.headers['content-security-policy']).toContain("img-src 'self' data: https:;");
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    }
  });

  it('answers an unknown path with 404 NOT_FOUND in the JSON envelope', async () => {
    for (const path of ['/', '/api', '/api/nope', '/v1/responses', '/api/properties/x/y/z']) {
      const res = await request(h.app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.type).toBe('application/json');
      expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
  });

  it('answers a method a path does not serve with 405 and Allow, and OPTIONS with 204 and Allow', async () => {
    const wrong = await request(h.app).delete('/api/me');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(wrong.body.error.code).toBe('METHOD_NOT_ALLOWED');
    const options = await request(h.app).options('/api/properties/00000000-0000-4000-8000-000000000000');
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('GET, PATCH, DELETE, HEAD, OPTIONS');
  });

  it('puts X-Request-Id on every answer (echoed when acceptable) and never answers 304 to If-None-Match: *', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const path of ['/api/openapi.json', '/api/me', '/api/nope', '/healthz']) {
      const res = await request(h.app).get(path).set('If-None-Match', '*');
      expect(res.status, path).not.toBe(304);
      expect(res.headers['x-request-id'], path).toMatch(uuid);
    }
    const document = await request(h.app).get('/api/openapi.json').set('If-None-Match', '*');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toBe('3.1.0');
    const mine = await request(h.app).get('/api/me').set('X-Request-Id', 'console-trace-1');
    expect(mine.status).toBe(401);
    expect(mine.headers['x-request-id']).toBe('console-trace-1');

    // The document says so: on every answer of every operation, and as an optional request header.
    const documented = buildConsoleOpenApiDocument() as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string; in: string }[];
            responses: Record<string, { headers?: Record<string, unknown> }>;
          }
        >
      >;
      components: { headers: Record<string, unknown> };
    };
    expect(documented.components.headers['X-Request-Id']).toMatchObject({ required: true });
    for (const [path, item] of Object.entries(documented.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.parameters, `${method} ${path}`).toContainEqual(
          expect.objectContaining({ name: 'X-Request-Id', in: 'header' }),
        );
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(response.headers?.['X-Request-Id'], `${method} ${path} ${status}`).toEqual({
            $ref: '#/components/headers/X-Request-Id',
          });
        }
      }
    }
  });

  it('asks for a session on every operation but sign-up and sign-in, with WWW-Authenticate', async () => {
    for (const e of endpoints.filter((e) => e.access !== 'public')) {
      const res = await request(h.app)[e.method](concrete(e.path)).set('Origin', 'https://console.example.test');
      expect(res.status, `${e.method} ${e.path}`).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="console"');
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses malformed JSON (400), a non-JSON body (415) and a body over 64 KB (413), each in the envelope', async () => {
    const bad = await request(h.app)
      .post('/api/auth/sign-in')
      .set('Content-Type', 'application/json')
      .send('{"email":');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_BODY');
    const form = await request(h.app).post('/api/auth/sign-in').type('form').send('email=a@b.c&password=x');
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const huge = await request(h.app)
      .post('/api/auth/sign-in')
      .send({ email: 'a@example.test', password: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const array = await request(h.app).post('/api/auth/sign-in').send([1, 2]);
    expect(array.status).toBe(400);
    expect(array.body.error.details).toEqual([{ path: '', message: expect.any(String) }]);
  });

  it('answers a path id that is not a UUID with 404, and a bad percent-encoding with 404, never a stack trace', async () => {
    const person = await h.signUp('paths');
    await h.teamOf(person);
    for (const path of ['/api/properties/not-a-uuid', '/api/keys/1', '/api/properties/%E0%A4%A']) {
      const res = await h.as(person.token)[path.startsWith('/api/keys') ? 'delete' : 'get'](path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('marks every /api answer no-store, so no shared cache keeps a token or a secret', async () => {
    const person = await h.signUp('cache');
    expect((await h.as(person.token).get('/api/me')).headers['cache-control']).toBe('no-store');
    expect((await request(h.app).get('/api/nope')).headers['cache-control']).toBe('no-store');
  });

  it('serves /healthz and /metrics with per-operation request counts', async () => {
    expect((await request(h.app).get('/healthz')).status).toBe(200);
    const count = async () => {
      const text = (await request(h.app).get('/metrics')).text;
      const line = /vt_console_requests_total\{[^}]*operation="getMe"[^}]*status="401"[^}]*\} (\d+)/.exec(text);
      return Number(line?.[1] ?? 0);
    };
    const before = await count();
    await request(h.app).get('/api/me');
    await request(h.app).get('/api/me');
    expect(await count()).toBe(before + 2);
  });
});

describe('console OpenAPI document', () => {
  const document = buildConsoleOpenApiDocument();

  it('is served at /api/openapi.json and rendered at /api/docs', async () => {
    const res = await request(h.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(document)));
    const page = await request(h.app).get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/api/docs/assets/swagger-ui-bundle.js');
    expect((await request(h.app).get('/api/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
    expect((await request(h.app).get('/api/docs/reference.js')).text).toContain('"/api/openapi.json"');
  });

  it('describes every catalogued operation once, with its success status and every error status it can answer', () => {
    const paths = document.paths ?? {};
    const ids = new Set<string>();
    for (const e of endpoints) {
      const operation = (paths[e.path] as Record<string, { operationId: string; responses: Record<string, unknown> }>)[
        e.method
      ];
      expect(operation, `${e.method} ${e.path}`).toBeDefined();
      expect(ids.has(operation!.operationId)).toBe(false);
      ids.add(operation!.operationId);
      expect(Object.keys(operation!.responses)).toContain(String(e.status));
      for (const code of e.errors ?? []) {
        expect(Object.keys(operation!.responses), `${e.operationId} ${code}`).toContain(
          String(CONSOLE_ERROR_STATUS[code]),
        );
      }
    }
    expect(ids.size).toBe(endpoints.length);
  });

  it('lints clean with Redocly’s recommended-strict rules', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'console-openapi.json',
      config,
    });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });
});

describe('console app serving the web UI', () => {
  const root = mkdtempSync(join(tmpdir(), 'vt-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
  const web = createConsoleHarness({ webRoot: root });
  afterAll(() => web.close());

  it('serves its files and index.html for its routes; a missing or climbing asset path is a 404 in the JSON envelope, not a 500', async () => {
    const asset = await request(web.app).get('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await request(web.app).get('/t/acme/p/x/crawl')).text).toContain('<title>console</title>');
    for (const path of ['/assets/nope.js', '/assets/..%2f..%2findex.html', '/assets/%2e%2e/index.html']) {
      const res = await request(web.app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
    const write = await request(web.app).post('/assets/app-abc123.js');
    expect(write.status).toBe(405);
    expect(write.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });
});
