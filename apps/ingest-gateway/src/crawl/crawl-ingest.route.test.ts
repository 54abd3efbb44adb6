import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { CrawlerIpIndex } from '@vt/attribution';
import { recentDeliveries } from '@vt/delivery-log';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../testing/gateway-harness.ts';

// The crawl ingest endpoint against the real gateway, Postgres and a BullMQ queue of this file's
// own. Every test seeds its own property, so the jobs and delivery rows it reads are its own.

const h = await createGatewayHarness();
// Its writer holds a lone row for a second: long enough to tell an answer that waited for its row.
const slowLog = await createGatewayHarness({ deliveryLog: { maxDelayMs: 1000 } });
afterAll(() => Promise.all([h.close(), slowLog.close()]));

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const HUMAN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';

type CrawlLine = Record<string, unknown>;

/** A complete crawl event for example.com (a GPTBot visit unless overridden). */
function line(over: CrawlLine = {}): CrawlLine {
  return {
    timestamp: '2025-03-01T12:00:00Z',
    host: 'example.com',
    path: '/',
    userAgent: GPTBOT,
    statusCode: 200,
    ...over,
  };
}

function ndjson(lines: (CrawlLine | string)[]): string {
  return `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;
}

type Target = { id: string };

function post(
  property: Target,
  token: string | undefined,
  body: string | Buffer,
  contentType = 'application/x-ndjson',
) {
  const req = request(h.app).post(`/api/ingest/crawl/${property.id}`);
  if (token !== undefined) req.set('Authorization', `Bearer ${token}`);
  // A Buffer without a type goes out with no Content-Type at all (supertest sends Buffers raw).
  if (contentType) req.set('Content-Type', contentType);
  // superagent would JSON-encode a Buffer sent as application/json; send its bytes as they are.
  if (Buffer.isBuffer(body)) req.serialize((bytes) => bytes);
  return req.send(body);
}

const { jobsOf, keptOf, crawlRowsOf: rowsOf, crawlStatusOf: statusOf } = h;

function expectRejection(res: { status: number; body: unknown }, status: number, reason?: string) {
  expect(res.status).toBe(status);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'hint', 'reason']);
  for (const value of Object.values(body)) expect(value).toEqual(expect.stringMatching(/\S/));
  if (reason) expect(body.reason).toBe(reason);
}

describe('POST /api/ingest/crawl/:propertyId: authentication and the property', () => {
  it('[CRAWL-1] a token is valid only for its own property: another property’s token answers 401', async () => {
    const a = await h.createProperty();
    const b = await h.createProperty();
    const res = await post(b.property, a.token, ndjson([line()]));
    expectRejection(res, 401, 'invalid_token');
    expect(await jobsOf(b.property.id)).toEqual([]);
    expect((await post(a.property, a.token, ndjson([line()]))).status).toBe(202);
  });

  it('[CRAWL-2] the token query parameter works, and the Authorization header wins over it', async () => {
    const { property, token } = await h.createProperty();
    const url = (t: string) => `/api/ingest/crawl/${property.id}?token=${encodeURIComponent(t)}`;
    const body = ndjson([line()]);
    const viaQuery = await request(h.app).post(url(token)).set('Content-Type', 'application/x-ndjson').send(body);
    expect(viaQuery.status).toBe(202);
    const rightHeaderWrongQuery = await request(h.app)
      .post(url('wrong-token'))
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(body);
    expect(rightHeaderWrongQuery.status).toBe(202);
    const wrongHeaderRightQuery = await request(h.app)
      .post(url(token))
      .set('Authorization', 'Bearer wrong-token')
      .set('Content-Type', 'application/x-ndjson')
      .send(body);
    expectRejection(wrongHeaderRightQuery, 401);
    expect(await jobsOf(property.id)).toHaveLength(2);
  });

  it('[CRAWL-3] rotation (a version bump) revokes the old token at once and the new one works', async () => {
    const { property, token } = await h.createProperty();
    expect((await post(property, token, ndjson([line()]))).status).toBe(202);
    const rotated = await h.db.property.update({
      where: { id: property.id },
      data: { crawlTokenVersion: { increment: 1 } },
    });
    const newToken = h.tokenOf(rotated);
    expect(newToken).not.toBe(token);
    expectRejection(await post(property, token, ndjson([line()])), 401);
    expect((await post(property, newToken, ndjson([line()]))).status).toBe(202);
    expect(await jobsOf(property.id)).toHaveLength(2);
  });

  it('[CRAWL-21] a missing, malformed or wrong token answers 401', async () => {
    const { property, token } = await h.createProperty();
    const body = ndjson([line()]);
    expectRejection(await post(property, undefined, body), 401, 'missing_token');
    const basic = await request(h.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', 'Basic x')
      .set('Content-Type', 'application/x-ndjson')
      .send(body);
    expectRejection(basic, 401);
    expectRejection(await post(property, `${token}x`, body), 401, 'invalid_token');
    expectRejection(await post(property, 'not-a-token', body), 401, 'invalid_token');
    expect(await jobsOf(property.id)).toEqual([]);
  });

  it('[CRAWL-22] a free property, or a paid one whose subscription lapsed, answers 402', async () => {
    const free = await h.createProperty({ plan: 'free' });
    const lapsed = await h.createProperty({ plan: 'growth', lapsed: true });
    for (const { property, token } of [free, lapsed]) {
      expectRejection(await post(property, token, ndjson([line()])), 402);
      expect(await jobsOf(property.id)).toEqual([]);
    }
  });

  it('[CRAWL-23] ingestion switched off answers 403 connection_disconnected, recorded, nothing stored', async () => {
    const { property, token } = await h.createProperty();
    await h.db.property.update({ where: { id: property.id }, data: { crawlIngestionEnabled: false } });
    expectRejection(await post(property, token, ndjson([line()])), 403, 'connection_disconnected');
    expect(await jobsOf(property.id)).toEqual([]);
    const rows = await rowsOf(property.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ statusCode: 403, reason: 'connection_disconnected', fix: expect.any(String) });
  });

  it('[CRAWL-24] an unknown property id, or one that is not a uuid, answers 404', async () => {
    const { token } = await h.createProperty();
    expectRejection(await post({ id: randomUUID() }, token, ndjson([line()])), 404);
    expectRejection(await post({ id: 'not-a-uuid' }, token, ndjson([line()])), 404);
  });

  it('[CRAWL-24] a property id that does not even decode (bad percent-encoding) answers 404, not a retryable 500', async () => {
    const { token } = await h.createProperty();
    expectRejection(await post({ id: '%E0%A4%A' }, token, ndjson([line()])), 404);
  });
});

describe('POST /api/ingest/crawl/:propertyId: reading the body', () => {
  it('[CRAWL-4] NDJSON and a JSON array are both read, by Content-Type or sniffed without it', async () => {
    const { property, token } = await h.createProperty();
    const events = [line({ path: '/a' }), line({ path: '/b', userAgent: HUMAN }), line({ path: '/c' })];
    const asNdjson = await post(property, token, ndjson(events), 'application/x-ndjson');
    const asArray = await post(property, token, JSON.stringify(events, null, 2), 'application/json');
    const sniffedNdjson = await post(property, token, Buffer.from(ndjson(events)), '');
    const sniffedArray = await post(property, token, Buffer.from(`  \n${JSON.stringify(events)}`), '');
    for (const res of [asNdjson, asArray, sniffedNdjson, sniffedArray]) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ kept: 2, received: 3 });
    }
    const jobs = await jobsOf(property.id);
    expect(jobs).toHaveLength(4);
    for (const job of jobs) expect(job.events.map((e) => e.path).sort()).toEqual(['/a', '/c']);
  });

  it('[CRAWL-5] a gzipped body is accepted with and without Content-Encoding: gzip', async () => {
    const { property, token } = await h.createProperty();
    const gz = gzipSync(ndjson([line({ path: '/gz' }), line({ userAgent: HUMAN })]));
    const withHeader = await request(h.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .set('Content-Encoding', 'gzip')
      .send(gz);
    const withoutHeader = await post(property, token, gz);
    const gzArray = await post(property, token, gzipSync(JSON.stringify([line({ path: '/gz' })])), 'application/json');
    for (const res of [withHeader, withoutHeader]) expect(res.body).toEqual({ kept: 1, received: 2 });
    expect(gzArray.body).toEqual({ kept: 1, received: 1 });
    expect((await keptOf(property.id)).map((e) => e.path)).toEqual(['/gz', '/gz', '/gz']);
  });

  it('[CRAWL-6] timestamps with an offset or in epoch ms are kept as UTC; incomplete lines are received, not kept; unknown keys ignored', async () => {
    const { property, token } = await h.createProperty();
    const { timestamp: _t, ...noTimestamp } = line({ path: '/no-timestamp' });
    const { host: _h, ...noHost } = line({ path: '/no-host' });
    const { path: _p, ...noPath } = line();
    const { statusCode: _s, ...noStatus } = line({ path: '/no-status' });
    const res = await post(
      property,
      token,
      ndjson([
        line({ path: '/offset', timestamp: '2025-03-01T14:30:00+02:00' }),
        line({ path: '/epoch', timestamp: Date.parse('2025-03-01T10:15:00Z') }),
        line({
          path: '/extra',
          cookie: 'sid=secret-cookie',
          requestBody: 'secret-body',
          tags: { a: 1 },
          ipAddress: 'x',
        }),
        line({ path: '/no-offset', timestamp: '2025-03-01T12:00:00' }),
        line({ path: '/not-a-date', timestamp: 'yesterday' }),
        noTimestamp,
        noHost,
        noPath,
        noStatus,
      ]),
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 3, received: 9 });
    const kept = await keptOf(property.id);
    expect(Object.fromEntries(kept.map((e) => [e.path, e.occurredAt]))).toEqual({
      '/offset': '2025-03-01T12:30:00.000Z',
      '/epoch': '2025-03-01T10:15:00.000Z',
      '/extra': '2025-03-01T12:00:00.000Z',
    });
    const extra = kept.find((e) => e.path === '/extra')!;
    expect(Object.keys(extra).sort()).toEqual(
      ['crawler', 'host', 'occurredAt', 'operator', 'path', 'statusCode', 'userAgent', 'verification'].sort(),
    );
    expect(JSON.stringify(kept)).not.toMatch(/secret-cookie|secret-body/);
  });

  it('[CRAWL-6] an unknown key is ignored even when an object under it carries a key named host', async () => {
    const { property, token } = await h.createProperty();
    // A shipper that nests the request headers: only the top-level host is the event's host.
    const nested = (userAgent: string) =>
      `{"timestamp":"2025-03-01T12:00:00Z","headers":{"host":"cdn.other.test"},"host":"example.com","path":"/n","userAgent":"${userAgent}","statusCode":200}`;
    const res = await post(property, token, ndjson([nested(HUMAN), nested(GPTBOT)]));
    expect(res.body).toEqual({ kept: 1, received: 2 });
    const [row] = await rowsOf(property.id);
    expect(row?.hostNote).toBeNull();
  });

  it('[CRAWL-6] an unknown key is ignored even when an object under it carries userAgent or referer keys', async () => {
    const { property, token } = await h.createProperty();
    // The client object is not part of the crawl event: the top-level userAgent and referer decide.
    const crawler = `{"timestamp":"2025-03-01T12:00:00Z","client":{"userAgent":"curl/8.5"},"host":"example.com","path":"/crawler","userAgent":"${GPTBOT}","statusCode":200}`;
    const referred = `{"timestamp":"2025-03-01T12:00:00Z","client":{"referer":"https://www.google.com/"},"host":"example.com","path":"/referred","userAgent":"${HUMAN}","referer":"https://chatgpt.com/","statusCode":200}`;
    const res = await post(property, token, ndjson([crawler, referred]));
    expect(res.body).toEqual({ kept: 2, received: 2 });
    expect((await keptOf(property.id)).map((e) => [e.path, e.crawler ?? e.aiPlatform])).toEqual([
      ['/crawler', 'GPTBot'],
      ['/referred', 'chatgpt'],
    ]);
  });

  it('[CRAWL-7] the query string is stripped from the path and the referer before the job is written', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(
      property,
      token,
      ndjson([
        line({ path: '/pricing?session=s3cr3t&utm_source=x#frag', referer: 'https://example.com/from?ref=q1uery' }),
        line({ path: '/landing?email=a@b.test', userAgent: HUMAN, referer: 'https://chatgpt.com/c/abc?token=t0ken' }),
        line({ path: '?only=query' }),
      ]),
    );
    expect(res.body).toEqual({ kept: 3, received: 3 });
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.path, e.referer])).toEqual([
      ['/pricing', 'https://example.com/from'],
      ['/landing', 'https://chatgpt.com/c/abc'],
      ['/', undefined],
    ]);
    expect(JSON.stringify(await jobsOf(property.id))).not.toMatch(/s3cr3t|utm_source|q1uery|a@b\.test|t0ken|only=/);
  });

  it('[CRAWL-8] an event without a userAgent is never kept, not even with an AI referer', async () => {
    const { property, token } = await h.createProperty();
    const { userAgent: _u, ...noAgent } = line({ referer: 'https://chatgpt.com/', agent: GPTBOT });
    const res = await post(property, token, ndjson([noAgent, { ...noAgent, userAgent: null }, line({ path: '/ok' })]));
    expect(res.body).toEqual({ kept: 1, received: 3 });
    expect((await keptOf(property.id)).map((e) => e.path)).toEqual(['/ok']);
  });

  it('[CRAWL-9] order and grouping do not matter: the same events kept in any order, in any batches', async () => {
    const a = await h.createProperty();
    const b = await h.createProperty();
    const events = [
      line({ path: '/1' }),
      line({ path: '/2', userAgent: CLAUDEBOT, timestamp: Date.parse('2025-02-28T23:59:59Z'), ip: '192.0.2.1' }),
      line({ path: '/3', userAgent: HUMAN }),
      line({ path: '/4', userAgent: HUMAN, referer: 'https://www.perplexity.ai/search' }),
      line({ path: '/5', userAgent: GOOGLEBOT }),
      line({ path: '/6', host: 'other.test' }),
      line({ path: '/1' }),
    ];
    const whole = await post(a.property, a.token, ndjson(events));
    const reversed = [...events].reverse();
    const first = await post(b.property, b.token, JSON.stringify(reversed.slice(0, 3)), 'application/json');
    const second = await post(b.property, b.token, gzipSync(ndjson(reversed.slice(3))));
    expect(whole.body).toEqual({ kept: 4, received: 7 });
    expect(first.body.kept + second.body.kept).toBe(4);
    expect(first.body.received + second.body.received).toBe(7);
    const sorted = (list: unknown[]) => list.map((e) => JSON.stringify(e)).sort();
    expect(sorted(await keptOf(b.property.id))).toEqual(sorted(await keptOf(a.property.id)));
  });

  it('[CRAWL-10] an unreadable line among good ones is skipped and counted; the rest is stored', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(
      property,
      token,
      ndjson([
        line({ path: '/before' }),
        'this is not json',
        '{"timestamp":"2025-03-01T12:00:00Z","host":"example.com","userAgent":"GPTBot/1.2"',
        '[1, 2, 3]',
        '"a string"',
        line({ path: '/after' }),
      ]),
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 2, received: 6 });
    expect((await keptOf(property.id)).map((e) => e.path)).toEqual(['/before', '/after']);
  });

  it('[CRAWL-10] a line whose host or method outgrows its cap once case-mapped costs only that line, not the batch', async () => {
    const { property, token } = await h.createProperty();
    // 212 characters as sent, 412 once lower-cased ('İ' maps to two): the line is unusable, and
    // the batch is still accepted (it once failed the job schema and answered 503 to every retry).
    const res = await post(
      property,
      token,
      ndjson([
        line({ host: `${'İ'.repeat(200)}.example.com`, path: '/long-host' }),
        line({ path: '/eszett', method: 'ß'.repeat(16) }),
        line({ path: '/plain' }),
      ]),
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 2, received: 3 });
    const kept = await keptOf(property.id);
    expect(kept.map((e) => e.path).sort()).toEqual(['/eszett', '/plain']);
    expect(kept.find((e) => e.path === '/eszett')).not.toHaveProperty('method');
  });

  it('[CRAWL-11] lines for other hosts are dropped and noted (count, up to three hosts, most frequent first)', async () => {
    const { property, token } = await h.createProperty({ domain: 'example.com' });
    const matching = ['example.com', 'www.example.com', 'EXAMPLE.com:8443', 'a.b.example.com'].map((host, i) =>
      line({ host, path: `/match-${i}` }),
    );
    const others = [
      ...Array.from({ length: 4 }, (_, i) =>
        line({ host: 'example.com.evil.test', userAgent: i % 2 ? GPTBOT : HUMAN }),
      ),
      ...Array.from({ length: 3 }, (_, i) => line({ host: 'Other.test', userAgent: i % 2 ? GPTBOT : HUMAN })),
      ...Array.from({ length: 2 }, (_, i) => line({ host: 'notexample.com', userAgent: i % 2 ? GPTBOT : HUMAN })),
      line({ host: 'fourth.test' }),
    ];
    const res = await post(property, token, ndjson([...others.slice(0, 5), ...matching, ...others.slice(5)]));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 4, received: 14 });
    expect((await keptOf(property.id)).map((e) => e.path).sort()).toEqual([
      '/match-0',
      '/match-1',
      '/match-2',
      '/match-3',
    ]);
    const [row] = await rowsOf(property.id);
    expect(row).toMatchObject({ statusCode: 202, linesReceived: 14, linesKept: 4 });
    expect(row?.hostNote).toEqual({ count: 10, hosts: ['example.com.evil.test', 'other.test', 'notexample.com'] });
  });

  it('[CRAWL-12] AI crawlers and AI-referred visits are kept; human traffic and search crawlers are dropped', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(
      property,
      token,
      ndjson([
        line({ path: '/human', userAgent: HUMAN, referer: 'https://www.google.com/' }),
        line({ path: '/googlebot', userAgent: GOOGLEBOT }),
        line({ path: '/bingbot', userAgent: BINGBOT }),
        line({ path: '/gptbot', userAgent: GPTBOT }),
        line({ path: '/claudebot', userAgent: CLAUDEBOT }),
        line({ path: '/chatgpt', userAgent: HUMAN, referer: 'https://chatgpt.com/' }),
        line({ path: '/lookalike', userAgent: HUMAN, referer: 'https://notchatgpt.com/' }),
        line({ path: '/suffix', userAgent: HUMAN, referer: 'https://chatgpt.com.evil.test/' }),
      ]),
    );
    expect(res.body).toEqual({ kept: 3, received: 8 });
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.path, e.crawler, e.operator, e.aiPlatform])).toEqual([
      ['/gptbot', 'GPTBot', 'openai', undefined],
      ['/claudebot', 'ClaudeBot', 'anthropic', undefined],
      ['/chatgpt', undefined, undefined, 'chatgpt'],
    ]);
  });
});

describe('POST /api/ingest/crawl/:propertyId: what a kept event carries', () => {
  it('[CRAWL-13] the IP decides verified / unverified / unverifiable against published ranges, then is gone', async () => {
    const { property, token } = await h.createProperty();
    h.setVerifier(new CrawlerIpIndex([{ operator: 'openai', prefixes: ['203.0.113.0/24', '2001:db8:abcd::/48'] }]));
    const ips = ['203.0.113.77', '198.51.100.23', '2001:db8:abcd::17', '192.0.2.200', '203.0.113.78'];
    try {
      const res = await post(
        property,
        token,
        ndjson([
          line({ path: '/in-range', ip: ips[0] }),
          line({ path: '/out-of-range', ip: ips[1] }),
          line({ path: '/v6', ip: ips[2] }),
          line({ path: '/no-ip' }),
          line({ path: '/no-ranges', userAgent: CLAUDEBOT, ip: ips[4] }),
          line({ path: '/referred', userAgent: HUMAN, referer: 'https://claude.ai/', ip: ips[3] }),
        ]),
      );
      expect(res.body).toEqual({ kept: 6, received: 6 });
    } finally {
      h.setVerifier({ verify: (_op, ip) => (ip ? 'unverified' : 'unverifiable') });
    }
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.path, e.verification])).toEqual([
      ['/in-range', 'verified'],
      ['/out-of-range', 'unverified'],
      ['/v6', 'verified'],
      ['/no-ip', 'unverifiable'],
      ['/no-ranges', 'unverifiable'],
      ['/referred', undefined],
    ]);
    const [job] = await h.queue
      .getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized'])
      .then((all) => all.filter((j) => j.data.propertyId === property.id));
    const stored = JSON.stringify(await h.redis.hgetall(h.queue.toKey(job!.id!)));
    const serialized = JSON.stringify(await jobsOf(property.id));
    for (const ip of ips) {
      expect(serialized).not.toContain(ip);
      expect(stored).not.toContain(ip);
    }
  });

  it('[CRAWL-14] a kept event holds path, host, userAgent, statusCode, UTC time, method, referer and its class; no ip key', async () => {
    const { property, token } = await h.createProperty();
    h.setVerifier({
      verify: (operator, ip) => (operator === 'openai' && ip === '203.0.113.9' ? 'verified' : 'unverified'),
    });
    try {
      await post(
        property,
        token,
        ndjson([
          line({
            timestamp: '2025-03-01T08:00:00-05:00',
            host: 'www.example.com',
            path: '/docs?x=1',
            method: 'GET',
            referer: 'https://example.com/',
            statusCode: 304,
            ip: '203.0.113.9',
            cookie: 'a=b',
          }),
          line({ path: '/landing', userAgent: HUMAN, referer: 'https://gemini.google.com/app', ip: '203.0.113.10' }),
        ]),
      );
    } finally {
      h.setVerifier({ verify: (_op, ip) => (ip ? 'unverified' : 'unverifiable') });
    }
    const jobs = await jobsOf(property.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.events).toEqual([
      {
        occurredAt: '2025-03-01T13:00:00.000Z',
        host: 'www.example.com',
        path: '/docs',
        userAgent: GPTBOT,
        statusCode: 304,
        method: 'GET',
        referer: 'https://example.com/',
        crawler: 'GPTBot',
        operator: 'openai',
        verification: 'verified',
      },
      {
        occurredAt: '2025-03-01T12:00:00.000Z',
        host: 'example.com',
        path: '/landing',
        userAgent: HUMAN,
        statusCode: 200,
        referer: 'https://gemini.google.com/app',
        aiPlatform: 'gemini',
      },
    ]);
    const keys = new Set<string>();
    JSON.stringify(jobs, (key, value) => {
      keys.add(key);
      return value;
    });
    expect(keys.has('ip')).toBe(false);
    expect(keys.has('cookie')).toBe(false);
  });
});

describe('POST /api/ingest/crawl/:propertyId: answers and batches', () => {
  it('[CRAWL-16] 202 answers exactly {kept, received}, both counting log lines', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(property, token, `\n${ndjson([line(), line({ userAgent: HUMAN }), 'garbage', line()])}\n\n`);
    expect(res.status).toBe(202);
    expect(res.body).toStrictEqual({ kept: 2, received: 4 });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('[CRAWL-4][CRAWL-16] NDJSON labelled application/json is read as NDJSON: received counts every log line', async () => {
    const { property, token } = await h.createProperty();
    const human = (path: string) => line({ path, userAgent: HUMAN });
    const res = await post(property, token, ndjson([human('/1'), human('/2'), human('/3')]), 'application/json');
    // The body is sniffed, not refused: never 202 with the three lines counted as one.
    expect(res.status).toBe(202);
    expect(res.body).toStrictEqual({ kept: 0, received: 3 });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('[CRAWL-17] a repeat of a named batch answers 200 {duplicate, kept, received} with the original figures and writes nothing', async () => {
    const { property, token } = await h.createProperty();
    const key = randomUUID();
    const named = (body: string) => post(property, token, body).set('Idempotency-Key', key);
    const first = await named(ndjson([line(), line({ userAgent: HUMAN }), line({ host: 'other.test' })]));
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ kept: 1, received: 3 });
    const again = await named(ndjson([line(), line()]));
    expect(again.status).toBe(200);
    expect(again.body).toStrictEqual({ duplicate: true, kept: 1, received: 3 });
    expect(await jobsOf(property.id)).toHaveLength(1);
    expect(await rowsOf(property.id)).toHaveLength(1);
  });

  it('[CRAWL-17] a named batch is recognised at once, before its delivery-log row is written', async () => {
    const { property, token } = await slowLog.createProperty();
    const key = randomUUID();
    const named = () =>
      request(slowLog.app)
        .post(`/api/ingest/crawl/${property.id}`)
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/x-ndjson')
        .set('Idempotency-Key', key)
        .send(ndjson([line()]));
    expect((await named()).status).toBe(202);
    // The writer holds the row for a second: the repeat is recognised by the batch's claim instead.
    expect(await recentDeliveries(slowLog.db, property.id, 'crawl')).toEqual([]);
    const again = await named();
    expect(again.status).toBe(200);
    expect(again.body).toStrictEqual({ duplicate: true, kept: 1, received: 1 });
    expect((await slowLog.jobs()).filter((j) => j.propertyId === property.id)).toHaveLength(1);
    await slowLog.flushDeliveryLog();
    const rows = await recentDeliveries(slowLog.db, property.id, 'crawl');
    expect(rows.map((r) => [r.statusCode, r.idempotencyKey])).toEqual([[202, key]]);
  });

  it('[CRAWL-17] overlapping attempts at one named batch: one 202, every other attempt the same figures as a duplicate', async () => {
    const { property, token } = await h.createProperty();
    const key = randomUUID();
    const body = ndjson([line(), line({ path: '/a' }), line({ userAgent: HUMAN })]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(property, token, body).set('Idempotency-Key', key)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 202]);
    for (const a of answers) expect({ kept: a.body.kept, received: a.body.received }).toEqual({ kept: 2, received: 3 });
    expect(await jobsOf(property.id)).toHaveLength(1);
    await h.flushDeliveryLog();
    expect(await rowsOf(property.id)).toHaveLength(1);
  });

  it('[CRAWL-17] a refused first attempt frees its name: the corrected retry under the same key is accepted', async () => {
    const { property, token } = await h.createProperty();
    const key = randomUUID();
    const unreadable = await post(property, token, 'not json at all\n').set('Idempotency-Key', key);
    expectRejection(unreadable, 400, 'unreadable_body');
    const retry = await post(property, token, ndjson([line()])).set('Idempotency-Key', key);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ kept: 1, received: 1 });
  });

  it('[CRAWL-18] an Idempotency-Key over 200 characters answers 400 idempotency_key_too_long; 200 is fine', async () => {
    const { property, token } = await h.createProperty();
    const tooLong = await post(property, token, ndjson([line()])).set('Idempotency-Key', 'k'.repeat(201));
    expectRejection(tooLong, 400, 'idempotency_key_too_long');
    expect(await jobsOf(property.id)).toEqual([]);
    const longest = 'k'.repeat(200);
    const ok = await post(property, token, ndjson([line()])).set('Idempotency-Key', longest);
    expect(ok.status).toBe(202);
    const repeat = await post(property, token, ndjson([line()])).set('Idempotency-Key', longest);
    expect(repeat.body).toEqual({ duplicate: true, kept: 1, received: 1 });
    expect(await jobsOf(property.id)).toHaveLength(1);
  });

  it('[CRAWL-19] a replayed unnamed batch is counted twice', async () => {
    const { property, token } = await h.createProperty();
    const body = ndjson([line({ path: '/twice' }), line({ userAgent: HUMAN })]);
    const first = await post(property, token, body);
    const second = await post(property, token, body);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body).toEqual(first.body);
    expect((await keptOf(property.id)).map((e) => e.path)).toEqual(['/twice', '/twice']);
    expect((await rowsOf(property.id)).map((r) => r.statusCode)).toEqual([202, 202]);
  });

  it('[CRAWL-20] a body with no readable line, or gzip that does not inflate, answers 400 unreadable_body', async () => {
    const { property, token } = await h.createProperty();
    const gz = gzipSync(ndjson([line(), line()]));
    const bodies: [string | Buffer, string][] = [
      ['hello\nworld', 'application/x-ndjson'],
      ['[1,2]', 'application/json'],
      ['', 'application/x-ndjson'],
      ['{"host":', 'application/json'],
      [Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x03, 0x01, 0x02, 0x03]), ''],
      [gz.subarray(0, gz.length - 12), ''],
    ];
    for (const [body, type] of bodies) expectRejection(await post(property, token, body, type), 400, 'unreadable_body');
    expect(await jobsOf(property.id)).toEqual([]);
    expect((await rowsOf(property.id)).map((r) => r.statusCode)).toEqual(bodies.map(() => 400));
  });

  it('[CRAWL-20] lines shaped like objects but not JSON (a trailing comma) are unreadable: a body of only those answers 400', async () => {
    const { property, token } = await h.createProperty();
    const broken = (path: string) =>
      `{"timestamp":"2025-03-01T12:00:00Z","host":"example.com","path":"${path}","userAgent":"${HUMAN}","statusCode":200,}`;
    const res = await post(property, token, ndjson([broken('/a'), broken('/b')]));
    expectRejection(res, 400, 'unreadable_body');
  });

  it('[CRAWL-20] whether a body is readable does not depend on the user agents in it', async () => {
    const { property, token } = await h.createProperty();
    // Well-formed JSON objects that are not complete crawl events (bad timestamp, bad status).
    const incomplete = (userAgent: string) =>
      ndjson([line({ userAgent, timestamp: 'not a time' }), line({ userAgent, statusCode: 'ok' })]);
    const humans = await post(property, token, incomplete(HUMAN));
    const crawlers = await post(property, token, incomplete(GPTBOT));
    expect(crawlers.status).toBe(humans.status);
    expect(crawlers.body).toEqual(humans.body);
  });
});

describe('POST /api/ingest/crawl/:propertyId: rejections, delivery log and status', () => {
  it('[CRAWL-27] every rejection answers exactly {error, hint, reason}, all strings', async () => {
    const { property, token } = await h.createProperty();
    const free = await h.createProperty({ plan: 'free' });
    const off = await h.createProperty();
    await h.db.property.update({ where: { id: off.property.id }, data: { crawlIngestionEnabled: false } });
    const body = ndjson([line()]);
    const answers = [
      await post(property, undefined, body),
      await post(property, 'wrong', body),
      await post(free.property, free.token, body),
      await post(off.property, off.token, body),
      await post({ id: randomUUID() }, token, body),
      await post(property, token, 'nothing readable'),
      await post(property, token, body).set('Idempotency-Key', 'x'.repeat(201)),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 402, 403, 404, 400, 400]);
    for (const res of answers) {
      expectRejection(res, res.status);
      expect(res.headers['content-type']).toMatch(/application\/json/);
    }
  });

  it('[CRAWL-28] the log holds the newest 50 attempts, newest first, with code, lines, reason and fix; wrong tokens in one counted row', async () => {
    const { property, token } = await h.createProperty();
    // Attempt i sends i + 1 lines (one of them kept); every seventh uses a wrong token (9 of 60).
    for (let i = 0; i < 60; i++) {
      const lines = [line(), ...Array.from({ length: i }, () => line({ userAgent: HUMAN }))];
      const res = await post(property, i % 7 === 3 ? 'wrong' : token, ndjson(lines));
      expect(res.status).toBe(i % 7 === 3 ? 401 : 202);
    }
    const rows = await rowsOf(property.id);
    // The newest 50 of the 51 accepted batches, and one summary of the 9 wrong-token attempts.
    expect(rows).toHaveLength(51);
    expect(await h.db.deliveryLogEntry.count({ where: { propertyId: property.id, channel: 'crawl' } })).toBe(51);
    const [summary, ...others] = rows.filter((row) => !row.authenticated);
    expect(others).toEqual([]);
    expect(summary).toMatchObject({ statusCode: 401, reason: 'invalid_token', fix: expect.stringMatching(/\S/) });
    expect(summary?.attempts).toBe(9);
    const accepted = rows.filter((row) => row.authenticated);
    const expected = Array.from({ length: 60 }, (_, i) => 59 - i)
      .filter((i) => i % 7 !== 3)
      .slice(0, 50);
    accepted.forEach((row, n) => {
      expect(row).toMatchObject({
        statusCode: 202,
        linesReceived: (expected[n] as number) + 1,
        linesKept: 1,
        attempts: 1,
      });
    });
  });

  it('[CRAWL-29] an attempt with no token, or to a property that does not exist, leaves no row', async () => {
    const { property, token } = await h.createProperty();
    const unknown = randomUUID();
    expect((await post(property, undefined, ndjson([line()]))).status).toBe(401);
    expect((await post({ id: unknown }, token, ndjson([line()]))).status).toBe(404);
    expect(await rowsOf(property.id)).toEqual([]);
    expect(await h.db.deliveryLogEntry.count({ where: { propertyId: unknown } })).toBe(0);
  });

  it('[CRAWL-30] connection status: not verified, connected, rejecting, disconnected, reconnected, nothing arriving', async () => {
    const { property, token } = await h.createProperty();
    expect(await statusOf(property.id)).toBe('not_verified');
    expect((await post(property, token, ndjson([line()]))).status).toBe(202);
    expect(await statusOf(property.id)).toBe('connected');
    // A refusal after a batch accepted within 24 hours: still Connected (the dialog warns).
    const tooLongKey = 'k'.repeat(201);
    expect((await post(property, token, ndjson([line()])).set('Idempotency-Key', tooLongKey)).status).toBe(400);
    expect(await statusOf(property.id)).toBe('connected');
    await h.flushDeliveryLog();
    await h.db
      .$executeRaw`UPDATE delivery_log_entries SET created_at = now() - interval '25 hours' WHERE property_id = ${property.id}::uuid AND status_code = 202`;
    expect((await post(property, token, ndjson([line()])).set('Idempotency-Key', tooLongKey)).status).toBe(400);
    expect(await statusOf(property.id)).toBe('rejecting');

    await h.db.property.update({ where: { id: property.id }, data: { crawlIngestionEnabled: false } });
    expect((await post(property, token, ndjson([line()]))).status).toBe(403);
    expect(await statusOf(property.id)).toBe('disconnected');

    await new Promise((r) => setTimeout(r, 5));
    await h.db.property.update({
      where: { id: property.id },
      data: { crawlIngestionEnabled: true, crawlStatusSince: new Date() },
    });
    expect(await statusOf(property.id)).toBe('not_verified');
    expect((await post(property, token, ndjson([line()]))).status).toBe(202);
    expect(await statusOf(property.id)).toBe('connected');

    const quiet = await h.createProperty();
    expect((await post(quiet.property, quiet.token, ndjson([line()]))).status).toBe(202);
    await h.flushDeliveryLog(); // its row is written, so there is a row to age
    await h.db
      .$executeRaw`UPDATE delivery_log_entries SET created_at = now() - interval '25 hours' WHERE property_id = ${quiet.property.id}::uuid`;
    expect(await statusOf(quiet.property.id)).toBe('nothing_arriving');
  });

  it('[CRAWL-30] a sender left on a rotated token turns the status Rejecting; a stranger’s wrong token does not', async () => {
    const { property, token } = await h.createProperty();
    expect((await post(property, token, ndjson([line()]))).status).toBe(202);
    await h.flushDeliveryLog();
    await h.db
      .$executeRaw`UPDATE delivery_log_entries SET created_at = now() - interval '25 hours' WHERE property_id = ${property.id}::uuid`;
    // A stranger's junk: summarised, and the status is what the sender's own rows say.
    for (let i = 0; i < 3; i++)
      expectRejection(await post(property, 'vtc_junk', ndjson([line()])), 401, 'invalid_token');
    expect(await statusOf(property.id)).toBe('nothing_arriving');
    // The owner rotates; the sender still posts with the old token: its own attempt, logged as one.
    await h.db.property.update({ where: { id: property.id }, data: { crawlTokenVersion: { increment: 1 } } });
    expectRejection(await post(property, token, ndjson([line()])), 401, 'rotated_token');
    expect(await statusOf(property.id)).toBe('rejecting');
    const rows = await rowsOf(property.id);
    expect(rows.find((row) => row.reason === 'rotated_token')).toMatchObject({
      statusCode: 401,
      authenticated: true,
      attempts: 1,
    });
    expect(await jobsOf(property.id)).toHaveLength(1);
  });

  it('[CRAWL-32] a named batch is still recognised after its row aged out of the last 50 (improved: remembered 24 h)', async () => {
    const { property, token } = await h.createProperty();
    const key = randomUUID();
    expect((await post(property, token, ndjson([line()])).set('Idempotency-Key', key)).status).toBe(202);
    for (let i = 0; i < 50; i++) await post(property, token, ndjson([line({ userAgent: HUMAN })]));
    await h.flushDeliveryLog();
    const rows = await rowsOf(property.id);
    expect(rows.some((r) => r.idempotencyKey === key)).toBe(false);
    const replay = await post(property, token, ndjson([line(), line()])).set('Idempotency-Key', key);
    expect(replay.status).toBe(200);
    expect(replay.body).toStrictEqual({ duplicate: true, kept: 1, received: 1 });
    expect(await jobsOf(property.id)).toHaveLength(1);
  });
});

describe('POST /api/ingest/crawl/:propertyId: never HTML, never a stack trace', () => {
  it('answers JSON to malformed JSON, a 5 MB line, invalid UTF-8, a GET with a body and a garbled id', async () => {
    const { property, token } = await h.createProperty();
    const answers = [
      await post(property, token, '{"timestamp": "2025-03-01T12:00:00Z", "host": ', 'application/json'),
      await post(property, token, `{"host":"example.com","path":"/${'x'.repeat(5 * 1024 * 1024)}"`),
      await post(
        property,
        token,
        Buffer.from([0xff, 0xfe, 0xfd, 0x0a, 0xc3, 0x28, 0x0a, 0xe2, 0x82]),
        'application/x-ndjson',
      ),
      await request(h.app)
        .get(`/api/ingest/crawl/${property.id}`)
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/x-ndjson')
        .send(ndjson([line()])),
      await post({ id: '%E0%A4%A' }, token, ndjson([line()])),
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.text).not.toMatch(/<html|<!doctype|<pre>|\n\s+at .+:\d+:\d+/i);
      expect(Object.keys(res.body).sort()).toEqual(['error', 'hint', 'reason']);
    }
  });
});

describe('POST /api/ingest/crawl/:propertyId: a 10 MB single line or array element', () => {
  it('[CRAWL-10] a 10 MB line between readable lines is skipped and counted; the lines around it are kept', async () => {
    const { property, token } = await h.createProperty();
    const huge = JSON.stringify({ ...line(), path: `/${'x'.repeat(10 * 1024 * 1024)}` });
    const body = gzipSync(ndjson([line({ path: '/before' }), huge, line({ path: '/after' })]));
    const res = await post(property, token, body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 2, received: 3 });
    expect((await keptOf(property.id)).map((e) => e.path).sort()).toEqual(['/after', '/before']);
  }, 60_000);

  it('[CRAWL-4][CRAWL-10] a 10 MB element of a JSON array is skipped and counted; the elements around it are kept', async () => {
    const { property, token } = await h.createProperty();
    // A usable event but for its size (unknown keys are ignored): read whole, it would be kept.
    const huge = { ...line({ path: '/huge' }), padding: 'x'.repeat(10 * 1024 * 1024) };
    const body = gzipSync(JSON.stringify([line({ path: '/before' }), huge, line({ path: '/after' })]));
    const res = await post(property, token, body, 'application/json');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 2, received: 3 });
    expect((await keptOf(property.id)).map((e) => e.path).sort()).toEqual(['/after', '/before']);
  }, 60_000);
});
