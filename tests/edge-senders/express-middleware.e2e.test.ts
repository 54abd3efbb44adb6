import { once } from 'node:events';
import type { Server } from 'node:http';
import { type CrawlIngestMiddlewareOptions, crawlIngestMiddleware } from '@vt/edge-senders/express-middleware';
import { runScript } from '@vt/test-support';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, httpRequest, refusingUrl, startIngestGateway, startRecorder, timed } from './ingest-peers.ts';

// The Express middleware in a real express app, served over loopback HTTP, posting to the real
// ingest gateway; then to a gateway that refuses connections or never answers.

let gateway: Awaited<ReturnType<typeof startIngestGateway>>;
const servers: Server[] = [];

beforeAll(async () => {
  gateway = await startIngestGateway();
});

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await gateway?.close();
});

/** A small site with the middleware first, listening on loopback. */
async function site(options: CrawlIngestMiddlewareOptions) {
  const middleware = crawlIngestMiddleware(options);
  const app = express();
  app.use(middleware);
  app.get('/docs/intro', (_req, res) => {
    res.send('<h1>Intro</h1>');
  });
  app.get('/pricing', (_req, res) => {
    res.send('<h1>Pricing</h1>');
  });
  app.get('/gone', (_req, res) => {
    res.status(410).send('gone');
  });
  app.post('/contact', (_req, res) => {
    res.status(201).json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const get = (path: string, headers: Record<string, string>, method = 'GET') =>
    httpRequest(`${base}${path}`, headers, method);
  return { middleware, get };
}

describe('the Express middleware', () => {
  it('sends every request the app served to the real gateway, which keeps the AI crawler and AI-referred visits with their status and verifies the crawlers by the client IP', async () => {
    const property = await gateway.property();
    const checkedBefore = gateway.checkedIps.length;
    const { middleware, get } = await site({
      ingestUrl: gateway.url,
      propertyId: property.id,
      token: property.token,
      batchLines: 5,
      flushIntervalMs: 300,
    });
    const host = { host: 'shop.example' };
    const requests: [string, Record<string, string>, string?][] = [
      ['/docs/intro?from=feed', { 'user-agent': AGENTS.gptBot }],
      ['/pricing', { 'user-agent': AGENTS.gptBot }],
      ['/missing', { 'user-agent': AGENTS.claudeBot }],
      ['/gone', { 'user-agent': AGENTS.claudeBot }],
      ['/docs/intro', { 'user-agent': AGENTS.perplexityUser }],
      ['/pricing', { 'user-agent': AGENTS.chrome, referer: 'https://chatgpt.com/?q=pricing' }],
      ['/', { 'user-agent': AGENTS.firefox }],
      ['/docs/intro', { 'user-agent': AGENTS.firefox }],
      ['/pricing', { 'user-agent': AGENTS.chrome, referer: 'https://www.google.com/' }],
      ['/gone', { 'user-agent': AGENTS.chrome }],
      ['/contact', { 'user-agent': AGENTS.chrome }, 'POST'],
      ['/static/app.js', { 'user-agent': AGENTS.firefox }],
    ];
    const statuses: number[] = [];
    for (const [path, headers, method] of requests) statuses.push(await get(path, { ...host, ...headers }, method));
    expect(statuses).toEqual([200, 200, 404, 410, 200, 200, 404, 200, 200, 410, 201, 404]);
    // Full batches go at once, the rest within the flush interval, without close().
    await expect.poll(() => property.received(), { timeout: 5_000 }).toBe(12);
    await middleware.close();

    expect(middleware.stats()).toMatchObject({ heldLines: 0, heldChars: 0, sentLines: 12 });
    expect(Object.values(middleware.stats().dropped)).toEqual([0, 0, 0, 0, 0]);
    const deliveries = await property.deliveries();
    expect(deliveries.length).toBeGreaterThanOrEqual(3);
    expect(deliveries.every((row) => row.statusCode === 202)).toBe(true);
    const kept = await property.kept();
    expect(
      kept.map(({ path, statusCode, method, crawler, verification, aiPlatform, referer }) => ({
        path,
        statusCode,
        method,
        crawler,
        verification,
        aiPlatform,
        referer,
      })),
    ).toEqual(
      [
        { path: '/docs/intro', statusCode: 200, method: 'GET', crawler: 'GPTBot', verification: 'verified' },
        { path: '/docs/intro', statusCode: 200, method: 'GET', crawler: 'Perplexity-User', verification: 'verified' },
        { path: '/gone', statusCode: 410, method: 'GET', crawler: 'ClaudeBot', verification: 'verified' },
        { path: '/missing', statusCode: 404, method: 'GET', crawler: 'ClaudeBot', verification: 'verified' },
        { path: '/pricing', statusCode: 200, method: 'GET', crawler: 'GPTBot', verification: 'verified' },
        { path: '/pricing', statusCode: 200, method: 'GET', aiPlatform: 'chatgpt', referer: 'https://chatgpt.com/' },
      ].map((event) => expect.objectContaining(event)),
    );
    expect(kept.every((event) => event.host === 'shop.example' && !('ip' in event))).toBe(true);
    // Each crawler line carried the client's address, and only that one.
    expect(gateway.checkedIps.slice(checkedBefore)).toEqual(Array(5).fill('127.0.0.1'));
  });

  it('answers as fast while the gateway refuses connections; the lines are dropped and counted', async () => {
    const { middleware, get } = await site({
      ingestUrl: await refusingUrl(),
      propertyId: 'c0ffee00-0000-4000-8000-000000000001',
      token: 'token',
      batchLines: 3,
      flushIntervalMs: 50,
      onDrop: () => {},
    });
    for (let i = 0; i < 9; i++) {
      const { ms, value } = await timed(() => get(`/p/${i}`, { 'user-agent': AGENTS.gptBot }));
      expect(value).toBe(404);
      expect(ms).toBeLessThan(750);
    }
    await middleware.close();
    expect(middleware.stats()).toMatchObject({ heldLines: 0, sentLines: 0 });
    expect(middleware.stats().dropped).toEqual({ full: 0, timeout: 0, unreachable: 9, refused: 0, closed: 0 });
  });

  it('answers as fast while the gateway never answers: posts time out, the buffer stays within its bound and drops the rest as full', async () => {
    const stuck = await startRecorder('hang');
    try {
      const drops: string[] = [];
      const bound = 1_200;
      const { middleware, get } = await site({
        ingestUrl: stuck.url,
        propertyId: 'c0ffee00-0000-4000-8000-000000000002',
        token: 'token',
        batchLines: 2,
        flushIntervalMs: 50,
        postTimeoutMs: 1_500,
        maxBufferedChars: bound,
        onDrop: (reason, lines) => drops.push(`${reason} ${lines}`),
      });
      const held: number[] = [];
      for (let i = 0; i < 20; i++) {
        const { ms, value } = await timed(() => get(`/p/${i}`, { 'user-agent': AGENTS.claudeBot }));
        expect(value).toBe(404);
        expect(ms).toBeLessThan(750);
        held.push(middleware.stats().heldChars);
      }
      expect(Math.max(...held)).toBeLessThanOrEqual(bound);
      expect(Math.max(...held)).toBeGreaterThan(bound / 2);
      const { ms: closing } = await timed(() => middleware.close());
      expect(closing).toBeLessThan(2_500);

      const { heldLines, heldChars, sentLines, dropped } = middleware.stats();
      expect({ heldLines, heldChars, sentLines }).toEqual({ heldLines: 0, heldChars: 0, sentLines: 0 });
      expect(dropped.full).toBeGreaterThan(0);
      expect(dropped.timeout).toBeGreaterThan(0);
      expect(dropped.full + dropped.timeout).toBe(20);
      // The stuck service read every line that timed out; none of the full ones left the site.
      expect(stuck.lines()).toHaveLength(dropped.timeout);
      expect(drops.filter((d) => d.startsWith('full')).length).toBe(dropped.full);
    } finally {
      await stuck.close();
    }
  });

  it('never holds the process open: an app whose flush timer is pending exits once its server closes, and close() posts what was buffered first', async () => {
    const recorder = await startRecorder();
    try {
      const fixture = 'tests/edge-senders/express-exit.fixture.ts';
      for (const mode of ['close', 'no-close']) {
        const run = runScript(fixture, [recorder.url, mode]);
        const { ms, value: code } = await timed(() =>
          Promise.race([run.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 15_000))]),
        );
        if (code !== 0) run.child.kill('SIGKILL');
        expect(code, run.stderr()).toBe(0);
        expect(ms).toBeLessThan(15_000);
        const stats = JSON.parse(run.stdout().trim().split('\n').at(-1)!);
        expect(stats).toMatchObject(mode === 'close' ? { sentLines: 1, heldLines: 0 } : { sentLines: 0, heldLines: 1 });
      }
      // Only the run that called close() posted its line.
      expect(recorder.lines()).toEqual([expect.objectContaining({ path: '/', statusCode: 200, host: 'shop.example' })]);
    } finally {
      await recorder.close();
    }
  });
});
