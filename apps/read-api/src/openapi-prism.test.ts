import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '@vt/contracts';
import { freePort } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';

// Real requests replayed through Prism's validating proxy (`prism proxy`) in front of the real read
// API over the real Postgres and Redis: Prism checks each request and each answer (status, headers,
// body) against the document the API serves and reports what breaks it in `sl-violations`.

const PRISM = fileURLToPath(import.meta.resolve('@stoplight/prism-cli/dist/index.js'));
const TODAY = new Date('2026-03-15T12:00:00Z');
const harness = createReadApiHarness({ now: TODAY });
/** A budget of one request a minute, for a real 429. */
const limited = createReadApiHarness({ now: TODAY, rateLimitPerMinute: 1 });

interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

let world: ReadWorld;
let upstream: Server;
let prism: ChildProcess;
let prismOutput = '';
let prismUrl: string;
let dir: string;

/**
 * The read API behind Prism. `X-Upstream: limited` picks the replica with a budget of one;
 * `X-Upstream: tampered` an answer that breaks the document on purpose, to prove Prism looks.
 */
function startUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const pick = req.headers['x-upstream'];
    if (pick === 'tampered') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 'not-a-uuid' }] }));
      return;
    }
    (pick === 'limited' ? limited.app : harness.app)(req, res);
  });
  server.listen(0, '127.0.0.1');
  return once(server, 'listening').then(() => server);
}

async function startPrism(documentPath: string, upstreamUrl: string): Promise<string> {
  const port = await freePort();
  prism = spawn(
    process.execPath,
    [PRISM, 'proxy', documentPath, upstreamUrl, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } },
  );
  prism.stdout?.on('data', (d: Buffer) => {
    prismOutput += d.toString();
  });
  prism.stderr?.on('data', (d: Buffer) => {
    prismOutput += d.toString();
  });
  const deadline = Date.now() + 30_000;
  while (!prismOutput.includes('Prism is listening')) {
    if (prism.exitCode !== null || Date.now() > deadline) throw new Error(`Prism did not start:\n${prismOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  world = await seedReadWorld(harness.db, TODAY);
  await limited.redisReady();
  upstream = await startUpstream();
  dir = mkdtempSync(join(tmpdir(), 'vt-prism-'));
  const documentPath = join(dir, 'openapi.json');
  writeFileSync(documentPath, JSON.stringify(buildOpenApiDocument()));
  prismUrl = await startPrism(documentPath, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
}, 60_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    prism.kill('SIGTERM');
    await once(prism, 'exit');
  }
  await new Promise((resolve) => upstream?.close(resolve));
  await harness.close();
  await limited.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A GET through Prism: the answer, and what Prism found wrong with the request and the answer. */
async function throughPrism(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${prismUrl}${path}`, { headers });
  const body = await res.text();
  const header = res.headers.get('sl-violations');
  const violations = header ? (JSON.parse(header) as Violation[]) : [];
  const describe = (v: Violation) => `${v.location.join('.')}: ${v.message}`;
  return {
    status: res.status,
    headers: res.headers,
    body: body ? JSON.parse(body) : undefined,
    requestViolations: violations.filter((v) => v.location[0] === 'request').map(describe),
    responseViolations: violations.filter((v) => v.location[0] !== 'request').map(describe),
  };
}

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('the read API through Prism’s validating proxy', () => {
  it('[READ-30] every documented endpoint’s real 200 passes: request, headers and body', async () => {
    const first = await throughPrism('/v1/responses?limit=1', auth(world.keys.all));
    const id = first.body.data[0].id as string;
    const growth = world.properties.growth.id;
    const paths = [
      `/v1/responses?mentioned=true&from=2026-03-10&limit=5&propertyId=${growth}`,
      `/v1/responses/${id}`,
      '/v1/tasks?status=in_progress',
      '/v1/properties?limit=10&offset=0',
      `/v1/prompts?propertyId=${growth}`,
      `/v1/visibility?propertyId=${growth}&model=chatgpt&to=2026-03-15`,
      '/v1/competitors',
      '/v1/sources?model=perplexity',
      '/v1/sources/urls?domain=www.wikipedia.org',
    ];
    for (const path of paths) {
      const res = await throughPrism(path, { ...auth(world.keys.all), 'X-Request-Id': 'prism-replay-1' });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-request-id'), path).toBe('prism-replay-1');
      expect(res.requestViolations, path).toEqual([]);
      expect(res.responseViolations, path).toEqual([]);
    }
  });

  it('[READ-30] a 400, a 401 for a refused key and a 404 pass as documented', async () => {
    // The request breaks the document on purpose (limit 0): Prism says so, and the 400 passes.
    const invalid = await throughPrism('/v1/responses?limit=0', auth(world.keys.all));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('INVALID_PARAM');
    expect(invalid.requestViolations).toEqual([expect.stringMatching(/^request\.query\.limit: /)]);
    expect(invalid.responseViolations).toEqual([]);

    for (const key of ['vt_live_not-a-key', world.keys.revoked]) {
      const refused = await throughPrism('/v1/tasks', auth(key));
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="read-api", error="invalid_token"');
      expect(refused.requestViolations).toEqual([]);
      expect(refused.responseViolations).toEqual([]);
    }

    const missing = await throughPrism('/v1/responses/00000000-0000-4000-8000-000000000000', auth(world.keys.all));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect(missing.requestViolations).toEqual([]);
    expect(missing.responseViolations).toEqual([]);
  });

  it('[READ-10] a request without a key is flagged as such by Prism, and its 401 passes', async () => {
    const anonymous = await throughPrism('/v1/properties');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('MISSING_AUTH');
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="read-api"');
    // The document asks for the bearer scheme: Prism names the missing credentials.
    expect(anonymous.requestViolations).toEqual(['request: Invalid security scheme used']);
    expect(anonymous.responseViolations).toEqual([]);
  });

  it('[READ-16] a real 429 passes with its documented headers', async () => {
    const send = () => throughPrism('/v1/properties', { ...auth(world.keys.all), 'X-Upstream': 'limited' });
    let res = await send();
    for (let attempt = 0; attempt < 2 && res.status !== 429; attempt++) res = await send();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.requestViolations).toEqual([]);
    expect(res.responseViolations).toEqual([]);
  });

  it('[READ-30] Prism does look: an answer that breaks the document is reported', async () => {
    const res = await throughPrism('/v1/tasks', { ...auth(world.keys.all), 'X-Upstream': 'tampered' });
    expect(res.status).toBe(200);
    expect(res.requestViolations).toEqual([]);
    const found = res.responseViolations.join('\n');
    expect(found).toMatch(/total/);
    expect(found).toMatch(/header must have required property 'x-ratelimit-limit'/i);
    expect(found).toMatch(/header must have required property 'x-request-id'/i);
    expect(found).toMatch(/data\.0\.id must match format "uuid"/);
  });
});
