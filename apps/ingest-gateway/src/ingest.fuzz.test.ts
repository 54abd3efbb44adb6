import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { deriveWebhookSecret } from '@vt/credentials';
import { testEnv } from '@vt/test-support';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { FAILED_AUTH_UNREACHED } from './failed-auth-limiter.ts';
import { createGatewayHarness } from './testing/gateway-harness.ts';

// Property-based: random and hostile bodies and headers on the crawl ingest endpoint and the lead
// webhook. Whatever comes in, the answer is JSON, never HTML, never a 500: an acceptance, or a
// rejection `{error, hint, reason}` with a documented status. `pnpm test:fuzz` runs more cases
// (FUZZ_RUNS); the regular suite runs a hundred or so.

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
// Thousands of refused requests from one address: the failed-attempt limits are tested elsewhere.
const h = await createGatewayHarness({ failedAuthLimits: FAILED_AUTH_UNREACHED });
const { property, token } = await h.createProperty({ domain: 'fuzz.example' });
const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, property.id);
afterAll(() => h.close());

// Every status the gateway documents (docs/log-shippers.md, "Crawl ingest"; docs/webhook-senders.md, "Lead webhook"), 500 aside.
const DOCUMENTED = [200, 202, 400, 401, 402, 403, 404, 413, 503];

function expectDocumented(res: request.Response) {
  expect(res.status, res.text).not.toBe(500);
  expect(DOCUMENTED, res.text).toContain(res.status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.text).not.toMatch(/<html|<!doctype/i);
  if (res.status >= 400) expect(Object.keys(res.body).sort()).toEqual(['error', 'hint', 'reason']);
}

/** JSON values of any shape, some deeply nested, some huge, with NULs and lone surrogates. */
const hostileJson = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.constantFrom(
    '{"timestamp":"2026-11-23T10:00:00Z","host":"fuzz.example","path":"/","userAgent":"GPTBot/1.2","statusCode":200}',
    '{"timestamp":"2026-11-23T10:00:00Z","host":"fuzz.example","path":"/\\u0000","userAgent":"GPTBot","statusCode":200}',
    '{"timestamp":1e400,"host":"fuzz.example","path":"/","userAgent":"\\ud800","statusCode":"200"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    '{"signature":"sig1=:AAAA:","signatureInput":"sig1=(","signatureAgent":"\\"https://chatgpt.com\\"","timestamp":"2026-11-23T10:00:00Z","host":"fuzz.example","path":"/","userAgent":"x","statusCode":200}',
  ),
);

const crawlBody = fc.oneof(
  fc
    .array(hostileJson, { maxLength: 8 })
    .map((values) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n')),
  fc.array(hostileJson, { maxLength: 8 }).map((values) => JSON.stringify(values)),
  fc.string({ unit: 'binary', maxLength: 400 }),
  // A JSON array cut anywhere: the array splitter's resync.
  fc.tuple(fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 5 }), fc.nat()).map(([values, cut]) => {
    const text = JSON.stringify(values);
    return text.slice(0, cut % text.length);
  }),
);

describe('the ingest gateway under random and hostile requests', () => {
  it('answers every crawl body, gzipped or not, with any content type, by its documented answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        crawlBody,
        fc.constantFrom('application/x-ndjson', 'application/json', 'text/plain', 'application/octet-stream', ''),
        fc.constantFrom('none', 'gzip', 'gzip-lie', 'deflate'),
        async (body, contentType, encoding) => {
          let req = request(h.app).post(`/api/ingest/crawl/${property.id}`).set('Authorization', `Bearer ${token}`);
          if (contentType) req = req.set('Content-Type', contentType);
          const bytes = Buffer.from(body, 'utf8');
          if (encoding === 'gzip') req = req.set('Content-Encoding', 'gzip').send(gzipSync(bytes));
          else if (encoding === 'gzip-lie') req = req.set('Content-Encoding', 'gzip').send(bytes);
          else if (encoding === 'deflate') req = req.set('Content-Encoding', 'deflate').send(bytes);
          else req = req.send(bytes);
          expectDocumented(await req);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers every body on every provider endpoint by its documented answers (Firehose: in its own shape)', async () => {
    // Provider-shaped records among the hostile ones, so bodies reach each provider's mapping.
    const providerRecord = fc.constantFrom(
      '{"ClientRequestHost":"fuzz.example","ClientRequestURI":"/","ClientRequestUserAgent":"GPTBot/1.2","EdgeResponseStatus":200,"EdgeStartTimestamp":1763632800000000000}',
      '{"content":"tests"}',
      '{"source":"static","proxy":{"host":"fuzz.example","path":"/","userAgent":["GPTBot/1.2",7],"statusCode":-1,"timestamp":"x"}}',
      '{"log_type":"traffic","url":"http://[::1","user_agent":"GPTBot/1.2","status_code":"200","timestamp":"2026-11-23T10:00:00Z"}',
      '{"reqTimeSec":"1e400","reqHost":"fuzz.example","reqPath":"/","UA":"%E0%A4%A","statusCode":"2000"}',
    );
    const records = fc.array(fc.oneof(hostileJson, providerRecord), { maxLength: 6 });
    const firehoseBody = fc.oneof(
      crawlBody,
      records.map((values) =>
        JSON.stringify({
          requestId: 'r',
          timestamp: 1,
          records: values.map((v) => ({
            data: Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64'),
          })),
        }),
      ),
      fc
        .array(fc.string({ unit: 'binary', maxLength: 60 }), { maxLength: 6 })
        .map((data) => JSON.stringify({ requestId: 'r', timestamp: 1, records: data.map((d) => ({ data: d })) })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('cloudflare', 'vercel', 'netlify', 'fastly', 'akamai', 'firehose'),
        fc.oneof(
          crawlBody,
          records.map((values) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n')),
          firehoseBody,
        ),
        fc.boolean(),
        fc.constantFrom('', 'timestamp,cs-host', 'timestamp,cs-host,cs-uri-stem,cs-user-agent,sc-status', '%%%'),
        async (provider, body, gzip, fields) => {
          const query = provider === 'firehose' && fields ? `?fields=${encodeURIComponent(fields)}` : '';
          let req = request(h.app).post(`/api/ingest/crawl/${property.id}/${provider}${query}`);
          req =
            provider === 'firehose'
              ? req.set('X-Amz-Firehose-Access-Key', token).set('X-Amz-Firehose-Request-Id', crypto.randomUUID())
              : req.set('Authorization', `Bearer ${token}`);
          const bytes = Buffer.from(body, 'utf8');
          const res = await req.send(gzip ? gzipSync(bytes) : bytes);
          if (provider !== 'firehose') return expectDocumented(res);
          expect(DOCUMENTED, res.text).toContain(res.status);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(Object.keys(res.body).sort()).toEqual(
            res.status === 200 ? ['requestId', 'timestamp'] : ['errorMessage', 'requestId', 'timestamp'],
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers every webhook body and signature header set by its documented answers', async () => {
    const signed = (id: string, timestamp: string, body: string) =>
      createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('hex');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
          fc.string({ unit: 'binary', maxLength: 300 }),
        ),
        fc.string({ maxLength: 150 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
        fc.oneof(
          fc.constant(String(Math.floor(Date.now() / 1000))),
          fc.string({ maxLength: 20 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
        ),
        fc.boolean(),
        async (body, id, timestamp, signCorrectly) => {
          const res = await request(h.app)
            .post(`/api/webhooks/leads/${property.id}`)
            .set('Content-Type', 'application/json')
            .set('x-webhook-id', id || 'x')
            .set('x-webhook-timestamp', timestamp || '0')
            .set('x-webhook-signature', signCorrectly ? signed(id || 'x', timestamp || '0', body) : 'deadbeef')
            .send(Buffer.from(body, 'utf8'));
          expectDocumented(res);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
