import { createHmac, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { CrawlerIpIndex } from '@vt/attribution';
import { CLOUDFRONT_SETUP_FIELDS, crawlEventSchema, FASTLY_LOG_FORMAT } from '@vt/contracts';
import { deriveVercelDrainSecret } from '@vt/credentials';
import { testEnv } from '@vt/test-support';
import request from 'supertest';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../../testing/gateway-harness.ts';

// Each provider's endpoint against the real gateway, Postgres and a BullMQ queue of this file's
// own, with deliveries shaped as the provider's documentation shows them (field names, nesting,
// batching, compression, handshakes). Every test seeds its own property.

const h = await createGatewayHarness();
afterAll(() => h.close());
beforeEach(() => h.setVerifier(new CrawlerIpIndex([{ operator: 'openai', prefixes: ['203.0.113.0/24'] }])));

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const HUMAN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

const ndjson = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const req = request(h.app).post(path);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  if (Buffer.isBuffer(body)) req.serialize((bytes) => bytes);
  return req.send(body);
}

const { keptOf, crawlRowsOf: rowsOf, crawlStatusOf: statusOf } = h;

/** An http_requests record as Logpush writes it with the setup's fields (timestamp_format rfc3339 unless given). */
function logpushRecord(over: Record<string, unknown> = {}) {
  return {
    ClientIP: '203.0.113.9',
    ClientRequestHost: 'www.example.com',
    ClientRequestMethod: 'GET',
    ClientRequestReferer: '',
    ClientRequestURI: '/pricing?utm_source=x',
    ClientRequestUserAgent: GPTBOT,
    EdgeResponseStatus: 200,
    EdgeStartTimestamp: '2025-11-20T10:00:00Z',
    RayID: randomUUID().slice(0, 16),
    ...over,
  };
}

describe('Cloudflare Logpush', () => {
  it('reads gzipped http_requests lines with the token from header_Authorization, in every timestamp format', async () => {
    const { property, token } = await h.createProperty();
    const body = gzipSync(
      ndjson([
        logpushRecord({ EdgeStartTimestamp: 1_763_632_800_123_000_000 }), // unixnano, the API's default
        logpushRecord({ EdgeStartTimestamp: 1_763_632_800, ClientRequestUserAgent: CLAUDEBOT }), // unix
        logpushRecord({ ClientRequestUserAgent: HUMAN }),
        logpushRecord({ ClientRequestUserAgent: HUMAN, ClientRequestReferer: 'https://chatgpt.com/' }),
      ]),
    );
    // Logpush sends no Content-Type of its own: the body is told by its bytes.
    const res = await post(`/api/ingest/crawl/${property.id}/cloudflare`, body, { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kept: 3, received: 4 });
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.occurredAt, e.crawler ?? e.aiPlatform, e.path, e.host])).toEqual([
      ['2025-11-20T10:00:00.123Z', 'GPTBot', '/pricing', 'www.example.com'],
      ['2025-11-20T10:00:00.000Z', 'ClaudeBot', '/pricing', 'www.example.com'],
      ['2025-11-20T10:00:00.000Z', 'chatgpt', '/pricing', 'www.example.com'],
    ]);
    // The IP verified GPTBot (203.0.113.0/24 is OpenAI's here) and was then dropped.
    expect(kept[0]?.verification).toBe('verified');
    expect(JSON.stringify(kept)).not.toContain('203.0.113.9');
    const [row] = await rowsOf(property.id);
    expect(row).toMatchObject({ statusCode: 200, linesReceived: 4, linesKept: 3 });
    expect(row?.outcome).toBe('accepted from Cloudflare Logpush: kept 3 of 4 lines');
    expect(await statusOf(property.id)).toBe('connected');
  });

  it('accepts the test upload Logpush sends when a job is created, counts nothing and shows the site Connected', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(
      `/api/ingest/crawl/${property.id}/cloudflare?header_Authorization=Bearer%20x`,
      gzipSync('{"content":"tests"}'),
      { Authorization: `Bearer ${token}` },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kept: 0, received: 0 });
    expect(await keptOf(property.id)).toEqual([]);
    const [row] = await rowsOf(property.id);
    expect(row?.outcome).toMatch(/test delivery/);
    expect(await statusOf(property.id)).toBe('connected');
  });

  it('counts a batch Logpush sends again (same bytes, no id) once', async () => {
    const { property, token } = await h.createProperty();
    const body = gzipSync(ndjson([logpushRecord(), logpushRecord({ ClientRequestUserAgent: HUMAN })]));
    const first = await post(`/api/ingest/crawl/${property.id}/cloudflare`, body, { Authorization: `Bearer ${token}` });
    const again = await post(`/api/ingest/crawl/${property.id}/cloudflare`, body, { Authorization: `Bearer ${token}` });
    expect(first.body).toEqual({ kept: 1, received: 2 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ duplicate: true, kept: 1, received: 2 });
    expect(await keptOf(property.id)).toHaveLength(1);
    expect(await rowsOf(property.id)).toHaveLength(1);
  });

  it('reads a job whose output is a JSON array (batch_prefix "[") and names a missing field in Logpush terms', async () => {
    const { property, token } = await h.createProperty();
    const { ClientRequestUserAgent: _left, ...withoutAgent } = logpushRecord();
    const body = JSON.stringify([withoutAgent, withoutAgent, logpushRecord()]);
    const res = await post(`/api/ingest/crawl/${property.id}/cloudflare`, body, {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    });
    expect(res.body).toEqual({ kept: 1, received: 3 });
    const [row] = await rowsOf(property.id);
    expect(row?.reason).toBe('fields_missing');
    expect(row?.fix).toBe(
      "Logpush field ClientRequestUserAgent is missing on 2 of 3 lines checked: add it to the job's fields (output_options.field_names).",
    );
  });

  it('tells a job with no token where Logpush sets it, and refuses a wrong one in its log', async () => {
    const { property } = await h.createProperty();
    const body = gzipSync(ndjson([logpushRecord()]));
    const missing = await post(`/api/ingest/crawl/${property.id}/cloudflare`, body);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ reason: 'missing_token' });
    expect(missing.body.hint).toContain('header_Authorization=Bearer%20<crawl token>');
    const wrong = await post(`/api/ingest/crawl/${property.id}/cloudflare`, body, {
      Authorization: 'Bearer vtc_wrong',
    });
    expect(wrong.status).toBe(401);
    const [row] = await rowsOf(property.id);
    expect(row).toMatchObject({ statusCode: 401, reason: 'invalid_token' });
    expect(row?.outcome).toBe('rejected from Cloudflare Logpush; nothing stored');
  });

  it('answers a gzip body that does not inflate with 400, and stores nothing', async () => {
    const { property, token } = await h.createProperty();
    const broken = gzipSync(ndjson([logpushRecord()])).subarray(0, 30);
    const res = await post(`/api/ingest/crawl/${property.id}/cloudflare`, broken, { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ reason: 'unreadable_body' });
    expect(await keptOf(property.id)).toEqual([]);
  });
});

/** A Vercel Drains log entry for a request (source static), as the drains reference shows one. */
function vercelEntry(over: Record<string, unknown> = {}, proxy: Record<string, unknown> = {}) {
  return {
    id: `${Date.now()}${Math.floor(Math.random() * 1e9)}`,
    deploymentId: 'dpl_233NRGRjVZX1caZrXWtz5g1TAksD',
    source: 'static',
    host: 'my-app-abc123.vercel.app',
    timestamp: 1_763_632_800_500,
    projectId: 'gdufoJxB6b9b1fEqr1jUtFkyavUU',
    level: 'info',
    requestId: randomUUID(),
    proxy: {
      timestamp: 1_763_632_800_000,
      method: 'GET',
      host: 'example.com',
      path: '/docs?page=2',
      userAgent: [GPTBOT],
      referer: '',
      region: 'sfo1',
      statusCode: 200,
      clientIp: '203.0.113.10',
      scheme: 'https',
      vercelCache: 'HIT',
      ...proxy,
    },
    ...over,
  };
}

describe('Vercel Drains', () => {
  it('counts requests once, reads the user agent array, and leaves build and function output uncounted', async () => {
    const { property, token } = await h.createProperty();
    const requestId = randomUUID();
    const records = [
      vercelEntry(),
      vercelEntry({}, { userAgent: [HUMAN] }),
      // A function that logs two lines: two entries for one request.
      vercelEntry({ source: 'lambda', requestId, type: 'stdout', message: 'a' }, { userAgent: [CLAUDEBOT] }),
      vercelEntry({ source: 'lambda', requestId, type: 'stdout', message: 'b' }, { userAgent: [CLAUDEBOT] }),
      { id: '1', source: 'build', type: 'stdout', message: 'Compiled', timestamp: 1, projectId: 'p', level: 'info' },
    ];
    const res = await post(`/api/ingest/crawl/${property.id}/vercel`, ndjson(records), {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/x-ndjson',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kept: 2, received: 3 });
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.crawler, e.path, e.occurredAt])).toEqual([
      ['GPTBot', '/docs', '2025-11-20T10:00:00.000Z'],
      ['ClaudeBot', '/docs', '2025-11-20T10:00:00.000Z'],
    ]);
  });

  it('checks x-vercel-signature against the secret the setup dialog shows, and refuses a forged body', async () => {
    const { property, token } = await h.createProperty();
    const secret = deriveVercelDrainSecret(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion);
    const body = JSON.stringify([vercelEntry()]);
    const signed = createHmac('sha1', secret).update(body).digest('hex');
    const path = `/api/ingest/crawl/${property.id}/vercel`;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const good = await post(path, body, { ...headers, 'x-vercel-signature': signed });
    expect(good.status).toBe(200);
    const forged = await post(path, body.replace('GPTBot', 'GPTBoT'), { ...headers, 'x-vercel-signature': signed });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ reason: 'signature_mismatch' });
    expect(await keptOf(property.id)).toHaveLength(1);
  });

  it('echoes the verification code of the drain URL in x-vercel-verify, on the check and on deliveries', async () => {
    const { property, token } = await h.createProperty();
    const path = `/api/ingest/crawl/${property.id}/vercel?vercelVerify=abc123`;
    const check = await request(h.app).get(path);
    expect(check.status).toBe(200);
    expect(check.headers['x-vercel-verify']).toBe('abc123');
    // The verification POST carries an empty object: no request in it, accepted.
    const empty = await post(path, '{}', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });
    expect(empty.status).toBe(200);
    expect(empty.headers['x-vercel-verify']).toBe('abc123');
    expect(empty.body).toEqual({ kept: 0, received: 0 });
  });
});

describe('Netlify Log Drains', () => {
  it('reads traffic records of the site and leaves function and deploy records uncounted', async () => {
    const { property, token } = await h.createProperty();
    const traffic = (over: Record<string, unknown>) => ({
      log_type: 'traffic',
      timestamp: '2026-11-20T10:00:00.000Z',
      request_id: randomUUID(),
      method: 'GET',
      url: '/blog/post?ref=1',
      status_code: 200,
      duration: 8,
      client_ip: '203.0.113.11',
      user_agent: GPTBOT,
      referrer: '',
      ...over,
    });
    const body = JSON.stringify([
      traffic({}),
      traffic({ user_agent: HUMAN }),
      traffic({ url: 'https://other.example/x', user_agent: CLAUDEBOT }),
      {
        log_type: 'functions',
        function_name: 'hello',
        level: 'info',
        message: 'hi',
        timestamp: '2026-11-20T10:00:00Z',
      },
      { log_type: 'deploys', deploy_section: 'building', message: 'ok', timestamp: '2026-11-20T10:00:00Z' },
    ]);
    const res = await post(`/api/ingest/crawl/${property.id}/netlify`, body, {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    });
    expect(res.body).toEqual({ kept: 1, received: 3 });
    const kept = await keptOf(property.id);
    // A path with no host is the property's own domain's; the absolute URL named another host.
    expect(kept.map((e) => [e.host, e.path])).toEqual([['example.com', '/blog/post']]);
    const [row] = await rowsOf(property.id);
    expect(row?.hostNote).toEqual({ count: 1, hosts: ['other.example'] });
  });

  it('says which setting hides the user agent when a drain excludes personal data', async () => {
    const { property, token } = await h.createProperty();
    const body = ndjson([{ log_type: 'traffic', timestamp: '2026-11-20T10:00:00Z', url: '/', status_code: 200 }]);
    const res = await post(`/api/ingest/crawl/${property.id}/netlify`, body, { Authorization: `Bearer ${token}` });
    expect(res.body).toEqual({ kept: 0, received: 1 });
    const [row] = await rowsOf(property.id);
    expect(row?.fix).toContain('untick "Exclude personally identifiable information"');
  });
});

/** What Fastly writes for the setup's log format, given each variable's value. */
function fastlyLine(values: Record<string, string | number>): string {
  return FASTLY_LOG_FORMAT.replace(/%\{(?:[^{}]|\{[^}]*\})*\}V/g, (variable) => {
    const key = Object.keys(values).find((name) => variable.includes(name));
    if (key === undefined) throw new Error(`no value for ${variable}`);
    return String(values[key]);
  });
}

describe('Fastly HTTPS logging', () => {
  it('answers the domain challenge with * so any service may post (each still needs the token)', async () => {
    const res = await request(h.app).get('/.well-known/fastly/logging/challenge');
    expect(res.status).toBe(200);
    expect(res.text.split('\n')).toContain('*');
  });

  it('reads the lines the setup’s log format writes, as the spec’s own', async () => {
    const { property, token } = await h.createProperty();
    const values = (agent: string) => ({
      'time.start': '2026-11-20T10:00:00+0000',
      'req.http.host': 'example.com',
      'req.url': '/a?b=c',
      'req.method': 'GET',
      'resp.status': 200,
      'User-Agent': agent,
      Referer: '',
      'Fastly-Client-IP': '203.0.113.12',
    });
    const lines = [fastlyLine(values(GPTBOT)), fastlyLine(values(HUMAN))];
    for (const line of lines) expect(crawlEventSchema.safeParse(JSON.parse(line)).success).toBe(true);
    const res = await post(`/api/ingest/crawl/${property.id}/fastly`, gzipSync(`${lines.join('\n')}\n`), {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/x-ndjson',
    });
    expect(res.body).toEqual({ kept: 1, received: 2 });
    const [event] = await keptOf(property.id);
    expect(event).toMatchObject({ crawler: 'GPTBot', path: '/a', occurredAt: '2026-11-20T10:00:00.000Z' });
  });
});

describe('Akamai DataStream 2', () => {
  it('reads JSON lines of string values with a percent-encoded user agent, the token as the Basic auth password', async () => {
    const { property, token } = await h.createProperty();
    const record = (ua: string) => ({
      version: 1,
      streamId: '12345',
      cp: '123456',
      reqId: randomUUID().slice(0, 8),
      reqTimeSec: '1763632800',
      bytes: '4995',
      cliIP: '203.0.113.13',
      statusCode: '200',
      proto: 'HTTPS',
      reqHost: 'example.com',
      reqMethod: 'GET',
      reqPath: '/path1/file.html',
      reqPort: '443',
      UA: encodeURIComponent(ua).replaceAll('%20', '+'),
      queryStr: 'param=value',
      referer: 'https%3A%2F%2Fchatgpt.com%2F',
    });
    const basic = Buffer.from(`datastream:${token}`).toString('base64');
    const res = await post(`/api/ingest/crawl/${property.id}/akamai`, ndjson([record(CLAUDEBOT), record(HUMAN)]), {
      Authorization: `Basic ${basic}`,
      'Content-Type': 'application/json',
    });
    expect(res.status).toBe(200);
    // The human came from ChatGPT (its referer decodes to chatgpt.com): kept as AI-referred.
    expect(res.body).toEqual({ kept: 2, received: 2 });
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.crawler ?? e.aiPlatform, e.userAgent, e.occurredAt])).toEqual([
      ['ClaudeBot', CLAUDEBOT, '2025-11-20T10:00:00.000Z'],
      ['chatgpt', HUMAN, '2025-11-20T10:00:00.000Z'],
    ]);
  });
});

/** A CloudFront real-time log line with the setup's fields, tab-separated in CloudFront's order. */
function cloudfrontLine(agent: string, over: Partial<Record<(typeof CLOUDFRONT_SETUP_FIELDS)[number], string>> = {}) {
  const values: Record<string, string> = {
    timestamp: '1763632800.937',
    'c-ip': '203.0.113.14',
    'sc-status': '200',
    'cs-method': 'GET',
    'cs-host': 'example.com',
    'cs-uri-stem': '/robots.txt',
    'cs-user-agent': encodeURIComponent(agent),
    'cs-referer': '-',
    ...over,
  };
  return CLOUDFRONT_SETUP_FIELDS.map((field) => values[field]).join('\t');
}

function firehoseDelivery(lines: string[], requestId = randomUUID()) {
  return {
    requestId,
    body: JSON.stringify({
      requestId,
      timestamp: Date.now(),
      records: lines.map((line) => ({ data: Buffer.from(`${line}\n`).toString('base64') })),
    }),
  };
}

function postFirehose(propertyId: string, token: string, delivery: { requestId: string; body: string | Buffer }) {
  return post(`/api/ingest/crawl/${propertyId}/firehose`, delivery.body, {
    'Content-Type': 'application/json',
    'X-Amz-Firehose-Protocol-Version': '1.0',
    'X-Amz-Firehose-Request-Id': delivery.requestId,
    'X-Amz-Firehose-Access-Key': token,
  });
}

describe('Amazon Data Firehose (CloudFront real-time logs)', () => {
  it('acknowledges as Firehose requires and reads CloudFront records in the setup’s field order', async () => {
    const { property, token } = await h.createProperty();
    const delivery = firehoseDelivery([cloudfrontLine(GPTBOT), cloudfrontLine(HUMAN), cloudfrontLine(CLAUDEBOT)]);
    const res = await postFirehose(property.id, token, delivery);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ requestId: delivery.requestId, timestamp: expect.any(Number) });
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.crawler, e.userAgent, e.occurredAt, e.verification])).toEqual([
      ['GPTBot', GPTBOT, '2025-11-20T10:00:00.937Z', 'verified'],
      ['ClaudeBot', CLAUDEBOT, '2025-11-20T10:00:00.937Z', 'unverifiable'],
    ]);
    const [row] = await rowsOf(property.id);
    expect(row).toMatchObject({ statusCode: 200, linesReceived: 3, linesKept: 2 });
    expect(row?.idempotencyKey).toBe(`firehose:${delivery.requestId}`);
  });

  it('counts a delivery Firehose retries under the same request id once, gzipped or not', async () => {
    const { property, token } = await h.createProperty();
    const delivery = firehoseDelivery([cloudfrontLine(GPTBOT)]);
    await postFirehose(property.id, token, delivery);
    const retry = await post(`/api/ingest/crawl/${property.id}/firehose`, gzipSync(delivery.body), {
      'Content-Encoding': 'gzip',
      'X-Amz-Firehose-Request-Id': delivery.requestId,
      'X-Amz-Firehose-Access-Key': token,
    });
    expect(retry.status).toBe(200);
    expect(retry.body.requestId).toBe(delivery.requestId);
    expect(await keptOf(property.id)).toHaveLength(1);
  });

  it('reads a record that is not base64 as one unreadable line, and goes on', async () => {
    const { property, token } = await h.createProperty();
    const requestId = randomUUID();
    const good = Buffer.from(cloudfrontLine(GPTBOT)).toString('base64');
    const body = JSON.stringify({
      requestId,
      timestamp: Date.now(),
      records: [{ data: '%%not base64!' }, { data: good }],
    });
    const res = await postFirehose(property.id, token, { requestId, body });
    expect(res.status).toBe(200);
    const [row] = await rowsOf(property.id);
    expect(row).toMatchObject({ linesReceived: 2, linesKept: 1 });
  });

  it('answers what is not a Firehose delivery, a wrong key and 10,001 records in Firehose’s error shape', async () => {
    const { property, token } = await h.createProperty();
    const requestId = randomUUID();
    const notFirehose = await postFirehose(property.id, token, { requestId, body: ndjson([{ a: 1 }]) });
    expect(notFirehose.status).toBe(400);
    expect(notFirehose.body).toEqual({
      requestId,
      timestamp: expect.any(Number),
      errorMessage: expect.stringContaining('not an Amazon Data Firehose delivery'),
    });
    const wrongKey = await postFirehose(property.id, 'vtc_wrong', firehoseDelivery([cloudfrontLine(GPTBOT)]));
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.errorMessage).toContain('access key');
    const tooMany = await postFirehose(
      property.id,
      token,
      firehoseDelivery(Array.from({ length: 10_001 }, () => cloudfrontLine(HUMAN))),
    );
    expect(tooMany.status).toBe(400);
    expect(await keptOf(property.id)).toEqual([]);
  });

  it('reads 10,000 records, the most Firehose sends at once', async () => {
    const { property, token } = await h.createProperty();
    const lines = Array.from({ length: 10_000 }, (_, i) => cloudfrontLine(i % 100 === 0 ? GPTBOT : HUMAN));
    const res = await postFirehose(property.id, token, firehoseDelivery(lines));
    expect(res.status).toBe(200);
    const [row] = await rowsOf(property.id);
    expect(row).toMatchObject({ linesReceived: 10_000, linesKept: 100 });
  });

  it('reads another field selection named in the URL, and says so when records do not match the list', async () => {
    const { property, token } = await h.createProperty();
    const fields = ['timestamp', 'c-ip', 'sc-status', 'cs-host', 'cs-uri-stem', 'x-edge-request-id', 'cs-user-agent'];
    const line = ['1763632800.000', '203.0.113.15', '200', 'example.com', '/x', 'abc==', 'GPTBot/1.2'].join('\t');
    const delivery = firehoseDelivery([line]);
    const res = await post(`/api/ingest/crawl/${property.id}/firehose?fields=${fields.join(',')}`, delivery.body, {
      'X-Amz-Firehose-Request-Id': delivery.requestId,
      'X-Amz-Firehose-Access-Key': token,
    });
    expect(res.status).toBe(200);
    expect(await keptOf(property.id)).toHaveLength(1);
    // The same record against the setup's eight fields: every line has seven.
    const mismatched = await postFirehose(property.id, token, firehoseDelivery([line]));
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.errorMessage).toContain(
      'CloudFront records have 7 fields where the endpoint reads 8 (timestamp, c-ip, sc-status, cs-method, cs-host, cs-uri-stem, cs-user-agent, cs-referer)',
    );
    const unreadable = await post(`/api/ingest/crawl/${property.id}/firehose?fields=c-ip,sc-status`, delivery.body, {
      'X-Amz-Firehose-Request-Id': randomUUID(),
      'X-Amz-Firehose-Access-Key': token,
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.errorMessage).toContain('unknown_fields');
  });

  it('reads CloudFront standard log lines under their own #Fields header', async () => {
    const { property, token } = await h.createProperty();
    const record = [
      '#Version: 1.0',
      '#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query x-host-header',
      [
        '2026-11-20',
        '10:00:00',
        'IAD89-C3',
        '335',
        '203.0.113.16',
        'GET',
        'd111111abcdef8.cloudfront.net',
        '/feed',
        '200',
        '-',
        'PerplexityBot/1.0',
        '-',
        'example.com',
      ].join('\t'),
    ].join('\n');
    const res = await postFirehose(property.id, token, firehoseDelivery([record]));
    expect(res.status).toBe(200);
    const kept = await keptOf(property.id);
    expect(kept.map((e) => [e.crawler, e.host, e.path, e.occurredAt])).toEqual([
      ['PerplexityBot', 'example.com', '/feed', '2026-11-20T10:00:00.000Z'],
    ]);
  });
});

describe('any provider, hostile or mistaken input', () => {
  const cap = 8 * 1024 * 1024; // the harness's wire cap

  it('answers a body over the cap with 413 (Firehose: its permanent failure, in its own shape) and stores nothing', async () => {
    const { property, token } = await h.createProperty();
    const big = Buffer.alloc(cap + 1, 0x20);
    for (const provider of ['cloudflare', 'vercel', 'netlify', 'fastly', 'akamai'] as const) {
      const res = await post(`/api/ingest/crawl/${property.id}/${provider}`, big, { Authorization: `Bearer ${token}` });
      expect(res.status, provider).toBe(413);
      expect(res.body.reason, provider).toBe('body_too_large');
    }
    const requestId = randomUUID();
    const firehose = await postFirehose(property.id, token, { requestId, body: big });
    expect(firehose.status).toBe(413);
    expect(firehose.body).toMatchObject({ requestId, errorMessage: expect.stringContaining('body_too_large') });
    expect(await keptOf(property.id)).toEqual([]);
  });

  it('answers broken gzip and a Firehose envelope that is not JSON with 400, never a 5xx', async () => {
    const { property, token } = await h.createProperty();
    const broken = Buffer.concat([gzipSync('{"a":1}\n').subarray(0, 12), Buffer.from('garbage')]);
    const requestId = randomUUID();
    const answers = await Promise.all([
      post(`/api/ingest/crawl/${property.id}/akamai`, broken, { Authorization: `Bearer ${token}` }),
      postFirehose(property.id, token, { requestId, body: broken }),
      postFirehose(property.id, token, { requestId: randomUUID(), body: '{"requestId":"x","records":[{"data":' }),
      postFirehose(property.id, token, {
        requestId: randomUUID(),
        body: '{"requestId":"x","timestamp":1,"records":"no"}',
      }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([400, 400, 400, 400]);
    expect(answers[1]?.body.requestId).toBe(requestId);
  });

  it('reads another provider’s records sent to the wrong endpoint as unusable, and says which fields they lack', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(`/api/ingest/crawl/${property.id}/cloudflare`, ndjson([vercelEntry(), vercelEntry()]), {
      Authorization: `Bearer ${token}`,
    });
    expect(res.body).toEqual({ kept: 0, received: 2 });
    const [row] = await rowsOf(property.id);
    expect(row?.fix).toContain('Logpush field EdgeStartTimestamp is missing on all 2 lines checked');
    const wrong = await post(`/api/ingest/crawl/${property.id}/vercel`, ndjson([logpushRecord()]), {
      Authorization: `Bearer ${token}`,
    });
    expect(wrong.body).toEqual({ kept: 0, received: 1 });
  });

  it('takes a mix of NDJSON lines and broken lines, counting each broken one unreadable', async () => {
    const { property, token } = await h.createProperty();
    const body = `${JSON.stringify(logpushRecord())}\nnot json\n[1,2]\n${JSON.stringify(logpushRecord({ ClientRequestUserAgent: HUMAN }))}\n`;
    const res = await post(`/api/ingest/crawl/${property.id}/cloudflare`, body, { Authorization: `Bearer ${token}` });
    expect(res.body).toEqual({ kept: 1, received: 4 });
  });
});

describe('any provider', () => {
  it('answers a provider it does not know with 404 naming the ones it reads', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(`/api/ingest/crawl/${property.id}/myspace`, '{}', { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ reason: 'unknown_provider' });
    expect(res.body.hint).toContain('cloudflare, vercel, netlify, fastly, akamai, firehose');
  });

  it('takes the token from ?token= when a provider cannot set a header', async () => {
    const { property, token } = await h.createProperty();
    const res = await post(`/api/ingest/crawl/${property.id}/netlify?token=${token}`, ndjson([{ log_type: 'waf' }]));
    expect(res.status).toBe(200);
  });
});
