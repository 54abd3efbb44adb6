import { type FetchEventLike, type Middleware, withCrawlLines } from '@vt/edge-senders/next-middleware';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, startIngestGateway, startRecorder, timed } from './ingest-peers.ts';

// The Next.js middleware called as Next.js calls it: a real Request and a fetch event whose
// waitUntil keeps what it is given (as Next.js does until they settle), posting over loopback HTTP
// to a recorder that keeps each post as it arrived, and to the real ingest gateway.

/** A NextFetchEvent's waitUntil: collects the promises; `settled()` waits for every one. */
function fetchEvent() {
  const promises: Promise<unknown>[] = [];
  let settledCount = 0;
  const event: FetchEventLike = {
    waitUntil: (promise) => {
      promises.push(promise);
      void promise.finally(() => settledCount++);
    },
  };
  return {
    event,
    count: () => promises.length,
    /** How many of the promises given are still pending. */
    pending: () => promises.length - settledCount,
    settled: async () => {
      for (let done = 0; done < promises.length; done = promises.length) await Promise.all(promises.slice(done));
    },
  };
}

const request = (path: string, headers: Record<string, string>, method = 'GET') =>
  new Request(`https://shop.example${path}`, { method, headers });

let recorder: Awaited<ReturnType<typeof startRecorder>>;
let gateway: Awaited<ReturnType<typeof startIngestGateway>>;

beforeAll(async () => {
  [recorder, gateway] = await Promise.all([startRecorder(), startIngestGateway()]);
});

afterAll(async () => {
  await Promise.all([recorder?.close(), gateway?.close()]);
});

/** Your own middleware: an auth check, a redirect, one that throws, NextResponse.next(), and pages. */
const site: Middleware = (req) => {
  const { pathname } = new URL(req.url);
  if (pathname === '/old-pricing') return Response.redirect('https://shop.example/pricing', 308);
  if (pathname.startsWith('/admin')) return new Response('sign in first', { status: 401 });
  if (pathname === '/broken') throw new Error('middleware bug');
  // What NextResponse.next() answers: the request goes on to the page.
  if (pathname === '/docs') return new Response(null, { headers: { 'x-middleware-next': '1' } });
  return undefined;
};

describe('the Next.js middleware', () => {
  it('sends one line per request: the status of what the middleware answered, else the assumed 200; the query dropped; the client IP the last X-Forwarded-For hop', async () => {
    const postsBefore = recorder.posts.length;
    const middleware = withCrawlLines(
      { ingestUrl: recorder.url, propertyId: 'c0ffee00-0000-4000-8000-000000000010', token: 'the-token', windowMs: 50 },
      site,
    );
    const { event, settled } = fetchEvent();
    const ip = { 'x-forwarded-for': '203.0.113.9, 192.0.2.44' };
    const signed = {
      signature: 'sig1=:c2lnbmF0dXJl:',
      'signature-input': 'sig1=("@authority" "signature-agent");created=1700000000;keyid="k";tag="web-bot-auth"',
      'signature-agent': '"https://chatgpt.com"',
    };
    const answers = [
      await middleware(request('/pricing?utm_source=feed', { 'user-agent': AGENTS.gptBot, ...ip }), event),
      await middleware(request('/old-pricing', { 'user-agent': AGENTS.claudeBot, ...ip }), event),
      await middleware(request('/admin/users', { 'user-agent': AGENTS.firefox, ...ip }), event),
      await middleware(
        request('/docs', { 'user-agent': AGENTS.chrome, referer: 'https://chatgpt.com/c/1?x=y' }),
        event,
      ),
      await middleware(request('/agent', { 'user-agent': AGENTS.chrome, ...signed }), event),
      await middleware(request('/form', { 'user-agent': AGENTS.chrome }, 'POST'), event),
    ];
    await expect(middleware(request('/broken', { 'user-agent': AGENTS.gptBot }), event)).rejects.toThrow(
      'middleware bug',
    );
    // The middleware's own answers go back to Next.js untouched.
    expect(answers.map((answer) => answer?.status)).toEqual([undefined, 308, 401, 200, undefined, undefined]);
    await settled();

    const posts = recorder.posts.slice(postsBefore);
    // One window, one post, with the token, gzipped NDJSON.
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      path: '/api/ingest/crawl/c0ffee00-0000-4000-8000-000000000010',
      headers: {
        authorization: 'Bearer the-token',
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
      },
    });
    const lines = posts[0]!.lines;
    for (const line of lines) expect(Date.parse(line.timestamp as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(lines.map(({ timestamp: _t, ...line }) => line)).toEqual([
      {
        host: 'shop.example',
        path: '/pricing',
        method: 'GET',
        statusCode: 200,
        userAgent: AGENTS.gptBot,
        ip: '192.0.2.44',
      },
      {
        host: 'shop.example',
        path: '/old-pricing',
        method: 'GET',
        statusCode: 308,
        userAgent: AGENTS.claudeBot,
        ip: '192.0.2.44',
      },
      {
        host: 'shop.example',
        path: '/admin/users',
        method: 'GET',
        statusCode: 401,
        userAgent: AGENTS.firefox,
        ip: '192.0.2.44',
      },
      {
        host: 'shop.example',
        path: '/docs',
        method: 'GET',
        statusCode: 200,
        userAgent: AGENTS.chrome,
        referer: 'https://chatgpt.com/c/1',
      },
      {
        host: 'shop.example',
        path: '/agent',
        method: 'GET',
        statusCode: 200,
        userAgent: AGENTS.chrome,
        signature: signed.signature,
        signatureInput: signed['signature-input'],
        signatureAgent: signed['signature-agent'],
      },
      { host: 'shop.example', path: '/form', method: 'POST', statusCode: 200, userAgent: AGENTS.chrome },
      { host: 'shop.example', path: '/broken', method: 'GET', statusCode: 500, userAgent: AGENTS.gptBot },
    ]);
    expect(middleware.stats()).toMatchObject({ heldLines: 0, sentLines: 7, posts: 1 });
  });

  it('posts a batch as soon as it is full, what gathered in the window after it, and opens a window for the next request', async () => {
    const postsBefore = recorder.posts.length;
    const middleware = withCrawlLines({
      ingestUrl: recorder.url,
      propertyId: 'c0ffee00-0000-4000-8000-000000000011',
      token: 'the-token',
      windowMs: 300,
      batchLines: 4,
      gzip: false,
    });
    const { event, settled } = fetchEvent();
    for (let i = 0; i < 10; i++) await middleware(request(`/p/${i}`, { 'user-agent': AGENTS.firefox }), event);
    // Two full batches left at once; the last two wait for the window.
    await expect.poll(() => recorder.posts.length - postsBefore).toBe(2);
    await settled();
    // A request after that window opens the next one.
    await middleware(request('/p/10', { 'user-agent': AGENTS.firefox }), event);
    await settled();
    const posts = recorder.posts.slice(postsBefore);
    expect(posts.map((post) => post.lines.map((line) => line.path))).toEqual([
      ['/p/0', '/p/1', '/p/2', '/p/3'],
      ['/p/4', '/p/5', '/p/6', '/p/7'],
      ['/p/8', '/p/9'],
      ['/p/10'],
    ]);
    expect(posts[0]!.headers['content-encoding']).toBeUndefined();
  });

  it('posts to the real gateway, which keeps the crawler and AI-referred visits', async () => {
    const property = await gateway.property();
    const middleware = withCrawlLines(
      { ingestUrl: gateway.url, propertyId: property.id, token: property.token, windowMs: 50 },
      site,
    );
    const { event, settled } = fetchEvent();
    const from = { 'x-forwarded-for': '127.0.0.1' };
    await middleware(request('/pricing', { 'user-agent': AGENTS.gptBot, ...from }), event);
    await middleware(request('/old-pricing', { 'user-agent': AGENTS.claudeBot, ...from }), event);
    await middleware(
      request('/docs', { 'user-agent': AGENTS.chrome, referer: 'https://www.perplexity.ai/search' }),
      event,
    );
    await middleware(request('/docs', { 'user-agent': AGENTS.firefox }), event);
    await settled();

    expect(middleware.stats()).toMatchObject({ sentLines: 4, heldLines: 0 });
    // The gateway logs the delivery a moment after it answers.
    await expect.poll(() => property.received(), { timeout: 10_000 }).toBe(4);
    expect(await property.kept()).toEqual([
      expect.objectContaining({ path: '/docs', statusCode: 200, aiPlatform: 'perplexity' }),
      expect.objectContaining({
        path: '/old-pricing',
        statusCode: 308,
        crawler: 'ClaudeBot',
        verification: 'verified',
      }),
      expect.objectContaining({ path: '/pricing', statusCode: 200, crawler: 'GPTBot', verification: 'verified' }),
    ]);
  });

  it('returns at once while the service never answers; the post times out and its lines are counted as dropped', async () => {
    const stuck = await startRecorder('hang');
    try {
      const middleware = withCrawlLines({
        ingestUrl: stuck.url,
        propertyId: 'c0ffee00-0000-4000-8000-000000000012',
        token: 'the-token',
        windowMs: 200,
        postTimeoutMs: 500,
        onDrop: () => {},
      });
      const { event, settled, count, pending } = fetchEvent();
      for (let i = 0; i < 5; i++) {
        const { ms } = await timed(() => middleware(request(`/p/${i}`, { 'user-agent': AGENTS.gptBot }), event));
        expect(ms).toBeLessThan(400); // a wait for the service would take the post timeout, 500 ms
      }
      // The response never waited: the post is a promise Next.js keeps, which settles by the timeout.
      expect(count()).toBeGreaterThan(0);
      expect(pending()).toBe(count());
      const { ms } = await timed(settled);
      expect(ms).toBeGreaterThan(500);
      expect(ms).toBeLessThan(2_500);
      expect(middleware.stats()).toMatchObject({ heldLines: 0, sentLines: 0, dropped: { timeout: 5 } });
      expect(stuck.lines()).toHaveLength(5);
    } finally {
      await stuck.close();
    }
  });
});
