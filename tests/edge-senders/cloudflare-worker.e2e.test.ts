import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Readable } from 'node:stream';
import { build } from 'esbuild';
import { Miniflare, type Request as MiniflareRequest, fetch as miniflareFetch } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, startIngestGateway, startRecorder, timed } from './ingest-peers.ts';

// The Cloudflare Worker run by workerd, Cloudflare's own runtime, under Miniflare: bundled from
// its source as wrangler bundles it (esbuild), in front of an origin on loopback, posting to the
// real ingest gateway on loopback, or to one that never answers.

const WORKER = 'packages/edge-senders/src/cloudflare-worker.ts';
let script: string;
let origin: Server;
let originUrl: string;
let gateway: Awaited<ReturnType<typeof startIngestGateway>>;

/** The origin of shop.example: a page, a 404 and a slow page. */
function startOrigin() {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://origin').pathname;
    if (path === '/slow') {
      setTimeout(() => res.end('slow page'), 150);
      return;
    }
    res.writeHead(path.startsWith('/docs') || path === '/' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(`origin ${path}`);
  });
  server.listen(0, '127.0.0.1');
  return server;
}

beforeAll(async () => {
  const bundled = await build({ entryPoints: [WORKER], bundle: true, format: 'esm', write: false, target: 'es2022' });
  script = bundled.outputFiles[0]!.text;
  origin = startOrigin();
  await once(origin, 'listening');
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  gateway = await startIngestGateway();
});

afterAll(async () => {
  origin?.closeAllConnections();
  origin?.close();
  await gateway?.close();
});

/**
 * The Worker under workerd with these vars. Its subrequests leave through a loopback router:
 * shop.example goes to the origin (Cloudflare sends `fetch(request)` to the zone's origin), the
 * rest (the ingest posts) where they were addressed.
 */
async function worker(bindings: Record<string, string>) {
  let output = '';
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2025-01-01',
    bindings,
    outboundService: (request: MiniflareRequest) => {
      const url = new URL(request.url);
      if (url.hostname !== 'shop.example') return miniflareFetch(request);
      return miniflareFetch(`${originUrl}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        duplex: 'half',
      });
    },
    // What the Worker logs (console.warn), from workerd's output.
    handleRuntimeStdio: (out: Readable, err: Readable) => {
      for (const stream of [out, err]) {
        stream.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
      }
    },
  });
  await mf.ready;
  const get = async (path: string, headers: Record<string, string>) => {
    const res = await mf.dispatchFetch(`http://shop.example${path}`, { headers });
    return { status: res.status, body: await res.text() };
  };
  return { get, output: () => output, dispose: () => mf.dispose() };
}

describe('the Cloudflare Worker, run by workerd', () => {
  it('answers with the origin and sends each line under waitUntil: the real gateway keeps the crawlers with their status, verified by CF-Connecting-IP', async () => {
    const property = await gateway.property();
    const checkedBefore = gateway.checkedIps.length;
    const w = await worker({
      INGEST_URL: gateway.url,
      PROPERTY_ID: property.id,
      CRAWL_TOKEN: property.token,
      WINDOW_MS: '3000',
      BATCH_LINES: '3',
    });
    try {
      const client = { 'cf-connecting-ip': '127.0.0.1' };
      const answers = [
        await w.get('/docs/intro?session=abc', { 'user-agent': AGENTS.gptBot, ...client }),
        await w.get('/missing', { 'user-agent': AGENTS.claudeBot, ...client }),
        await w.get('/', { 'user-agent': AGENTS.firefox, ...client }),
        await w.get('/docs/faq', { 'user-agent': AGENTS.chrome, referer: 'https://chatgpt.com/', ...client }),
        await w.get('/docs/faq', { 'user-agent': AGENTS.chrome, ...client }),
      ];
      expect(answers).toEqual([
        { status: 200, body: 'origin /docs/intro' },
        { status: 404, body: 'origin /missing' },
        { status: 200, body: 'origin /' },
        { status: 200, body: 'origin /docs/faq' },
        { status: 200, body: 'origin /docs/faq' },
      ]);
      // One full batch of three at once, the other two after the window.
      await expect.poll(() => property.received(), { timeout: 10_000 }).toBe(5);
      expect((await property.deliveries()).map((row) => [row.statusCode, row.linesReceived])).toEqual([
        [202, 3],
        [202, 2],
      ]);
      expect(await property.kept()).toEqual([
        expect.objectContaining({ path: '/docs/faq', statusCode: 200, aiPlatform: 'chatgpt', host: 'shop.example' }),
        expect.objectContaining({ path: '/docs/intro', statusCode: 200, crawler: 'GPTBot', verification: 'verified' }),
        expect.objectContaining({ path: '/missing', statusCode: 404, crawler: 'ClaudeBot', verification: 'verified' }),
      ]);
      expect(gateway.checkedIps.slice(checkedBefore)).toEqual(['127.0.0.1', '127.0.0.1']);
      // No drop, and no complaint from workerd about a post made for another request.
      expect(w.output()).not.toMatch(/ai-ingest|request context|Cannot perform I\/O/i);
    } finally {
      await w.dispose();
    }
  });

  it('answers as fast while the service never answers; the post times out and the drop is logged', async () => {
    const stuck = await startRecorder('hang');
    const w = await worker({
      INGEST_URL: stuck.url,
      PROPERTY_ID: 'c0ffee00-0000-4000-8000-000000000020',
      CRAWL_TOKEN: 'the-token',
      WINDOW_MS: '100',
      POST_TIMEOUT_MS: '1500',
      GZIP: 'false',
      SEND_IP: 'false',
    });
    try {
      // The origin's slow page takes 150 ms; the Worker adds no wait for the service on top.
      for (let i = 0; i < 4; i++) {
        const { ms, value } = await timed(() =>
          w.get('/slow', { 'user-agent': AGENTS.gptBot, 'cf-connecting-ip': '192.0.2.7' }),
        );
        expect(value).toEqual({ status: 200, body: 'slow page' });
        expect(ms).toBeLessThan(1_000);
      }
      await expect.poll(() => w.output(), { timeout: 8_000 }).toMatch(/ai-ingest: dropped crawl lines \(\d+ timeout\)/);
      expect(stuck.lines().length).toBeGreaterThan(0);
      // GZIP=false and SEND_IP=false: plain NDJSON, and no client address in any line.
      expect(stuck.posts.every((post) => post.headers['content-encoding'] === undefined)).toBe(true);
      expect(stuck.lines().every((line) => line.path === '/slow' && !('ip' in line))).toBe(true);
    } finally {
      await w.dispose();
      await stuck.close();
    }
  });

  it('passes requests through and sends nothing when it is not configured', async () => {
    const w = await worker({});
    try {
      expect(await w.get('/docs/x', { 'user-agent': AGENTS.gptBot })).toEqual({ status: 200, body: 'origin /docs/x' });
      await expect
        .poll(() => w.output())
        .toContain('ai-ingest: INGEST_URL, PROPERTY_ID or CRAWL_TOKEN is not set; nothing is sent');
    } finally {
      await w.dispose();
    }
  });
});
