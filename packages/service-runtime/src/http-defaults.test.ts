import { Writable } from 'node:stream';
import { createLogger } from '@vt/logger';
import { expectSecurityHeaders } from '@vt/test-support';
import express from 'express';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHealthServer } from './health-server.ts';
import { applyHttpDefaults, requestIdOf } from './http-defaults.ts';
import type { RunningServer } from './http-server.ts';

// What every HTTP app gets from applyHttpDefaults: a request id on every answer and in its log
// line, and no 304 from express' freshness check. The apps' own tests check they call it.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A logger whose lines the test reads back. */
function capturedLogger(level: 'info' | 'debug' = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ name: 'test-app', level, destination }), lines };
}

/** Resolves once the answer's log line is written (the 'close' listener runs after supertest sees the answer). */
async function lineFor(lines: Record<string, unknown>[], requestId: string) {
  for (let i = 0; i < 50; i++) {
    const line = lines.find((l) => l.requestId === requestId && l.msg === 'request answered');
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no log line for ${requestId}`);
}

const { logger, lines } = capturedLogger();
const app = express();
applyHttpDefaults(app, { logger });
app.get('/thing', (_req, res) => void res.json({ ok: true }));
app.get('/healthz', (_req, res) => void res.json({ ok: true }));
app.get('/missing', (_req, res) => void res.status(404).json({ error: 'not_found' }));
app.get('/boom', (_req, res) => {
  logger.error({ requestId: requestIdOf(res) }, 'the handler failed');
  res.status(500).json({ error: 'internal' });
});

describe('request ids', () => {
  it('mints a UUID when the request has none, puts it on the answer and in the log line', async () => {
    const res = await request(app).get('/thing?token=vtc_secret_in_query');
    expect(res.status).toBe(200);
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const line = await lineFor(lines, id);
    expect(line).toMatchObject({ level: 'info', method: 'GET', path: '/thing', status: 200, app: 'test-app' });
    expect(line.durationMs).toBeTypeOf('number');
    // The query never reaches the log: a crawl token may ride there.
    expect(JSON.stringify(line)).not.toContain('vtc_secret');
    const other = await request(app).get('/thing');
    expect(other.headers['x-request-id']).toMatch(UUID);
    expect(other.headers['x-request-id']).not.toBe(id);
  });

  it('takes an acceptable X-Request-Id from the request, as sent', async () => {
    for (const sent of [
      'f4d6c2a0-1b3e-4c5d-8e9f-0a1b2c3d4e5f',
      '9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d',
      'req_01HZY.abc:42',
      'YWJjZGVm+/==',
      'x'.repeat(128),
    ]) {
      const res = await request(app).get('/thing').set('X-Request-Id', sent);
      expect(res.headers['x-request-id'], sent).toBe(sent);
      expect(await lineFor(lines, sent)).toMatchObject({ path: '/thing', status: 200 });
    }
  });

  it('replaces one that is empty, too long or carries unsafe characters, and never logs it', async () => {
    for (const sent of ['', 'x'.repeat(129), 'two words', 'a"b', 'a,b', 'é', '<script>', 'a;b=c']) {
      const res = await request(app).get('/thing').set('X-Request-Id', sent);
      const id = String(res.headers['x-request-id']);
      expect(id, JSON.stringify(sent)).toMatch(UUID);
      await lineFor(lines, id);
      if (sent.length > 0) expect(lines.some((l) => l.requestId === sent)).toBe(false);
    }
    // Sent twice, node joins the values with ", " (as here): not one id, so a new one.
    const twice = await request(app).get('/thing').set('X-Request-Id', 'one, two');
    expect(twice.headers['x-request-id']).toMatch(UUID);
  });

  it('is on every answer whatever its status, with the security headers, and in the app’s own lines', async () => {
    const missing = await request(app).get('/missing').set('X-Request-Id', 'req-404');
    expect(missing.headers['x-request-id']).toBe('req-404');
    expectSecurityHeaders(missing.headers);
    expect(await lineFor(lines, 'req-404')).toMatchObject({ level: 'warn', status: 404 });

    const boom = await request(app).get('/boom').set('X-Request-Id', 'req-500');
    expect(boom.status).toBe(500);
    expect(boom.headers['x-request-id']).toBe('req-500');
    expect(await lineFor(lines, 'req-500')).toMatchObject({ level: 'error', status: 500 });
    expect(lines).toContainEqual(expect.objectContaining({ requestId: 'req-500', msg: 'the handler failed' }));

    // Probes are answered with an id too; their line is debug, below the default level.
    const probe = await request(app).get('/healthz').set('X-Request-Id', 'req-probe');
    expect(probe.headers['x-request-id']).toBe('req-probe');
    expect(await lineFor(lines, 'req-probe')).toMatchObject({ level: 'debug', path: '/healthz' });
  });

  it('writes no line below the logger’s level', async () => {
    const quiet = capturedLogger('info');
    const quietApp = express();
    applyHttpDefaults(quietApp, { logger: quiet.logger });
    quietApp.get('/healthz', (_req, res) => void res.json({ ok: true }));
    quietApp.get('/thing', (_req, res) => void res.json({ ok: true }));
    await request(quietApp).get('/healthz').set('X-Request-Id', 'probe-1');
    await request(quietApp).get('/thing').set('X-Request-Id', 'thing-1');
    await lineFor(quiet.lines, 'thing-1');
    expect(quiet.lines.map((l) => l.requestId)).toEqual(['thing-1']);
  });
});

describe('conditional requests', () => {
  it('answers If-None-Match: * (and any other precondition) with the full 200, never 304', async () => {
    for (const [header, value] of [
      ['If-None-Match', '*'],
      ['If-None-Match', 'W/"anything"'],
      ['If-Modified-Since', new Date(Date.now() + 86_400_000).toUTCString()],
    ] as const) {
      for (const method of ['get', 'head'] as const) {
        const res = await request(app)[method]('/thing').set(header, value);
        expect(res.status, `${method} ${header}: ${value}`).toBe(200);
        expect(res.headers.etag).toBeUndefined();
        if (method === 'get') expect(res.body).toEqual({ ok: true });
      }
    }
  });

  it('express alone would have answered If-None-Match: * with 304 (what this guards against)', async () => {
    const bare = express();
    bare.get('/thing', (_req, res) => void res.json({ ok: true }));
    const res = await request(bare).get('/thing').set('If-None-Match', '*');
    expect(res.status).toBe(304);
  });
});

describe('the health server of a worker', () => {
  const health = capturedLogger();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHealthServer({
      registry: new Registry(),
      checks: [],
      isClosing: () => false,
      port: 0,
      host: '127.0.0.1',
      logger: health.logger,
    });
  });
  afterAll(() => server.close());

  it('puts a request id on its answers and never answers 304', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/healthz`, {
      headers: { 'If-None-Match': '*', 'X-Request-Id': 'probe-42' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('probe-42');
    expect(await lineFor(health.lines, 'probe-42')).toMatchObject({ path: '/healthz', status: 200 });
    const missing = await fetch(`http://127.0.0.1:${server.port}/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toMatch(UUID);
  });
});
