import { expectSecurityHeaders } from '@vt/test-support';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from './testing/gateway-harness.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const redisDown = [{ name: 'redis', check: () => Promise.reject(new Error('down')) }];
const open = await createGatewayHarness({ readinessChecks: redisDown });
const closing = await createGatewayHarness({ isClosing: () => true });
afterAll(async () => {
  await open.close();
  await closing.close();
});

describe('ingest-gateway app', () => {
  it('sends security headers on every answer, a rejection included', async () => {
    for (const path of ['/healthz', '/api/ingest/crawl/nope']) {
      const res = await request(open.app).get(path);
      expectSecurityHeaders(res.headers);
    }
  });

  it('puts X-Request-Id on every answer, echoed when acceptable, and never answers 304', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const probe = await request(open.app).get('/healthz').set('If-None-Match', '*');
    expect(probe.status).toBe(200);
    expect(probe.headers['x-request-id']).toMatch(uuid);
    // Not a crawl batch: the metrics test below counts this harness's batches.
    const rejected = await request(open.app).post('/api/nowhere').set('X-Request-Id', 'shipper-batch-7').send('');
    expect(rejected.status).toBe(404);
    expect(rejected.headers['x-request-id']).toBe('shipper-batch-7');
  });

  it('readiness names the dependency that does not answer, and answers 503 while closing', async () => {
    const res = await request(open.app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', checks: { redis: 'unavailable' } });
    const whileClosing = await request(closing.app).get('/readyz');
    expect(whileClosing.status).toBe(503);
    expect(whileClosing.body).toEqual({ status: 'closing' });
    expect((await request(closing.app).get('/healthz')).status).toBe(200);
  });

  it('an unknown path answers {error, hint, reason} as JSON', async () => {
    const res = await request(open.app).post('/api/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String), hint: expect.any(String), reason: 'not_found' });
  });

  it('counts crawl batches by status and the lines received and kept in /metrics', async () => {
    const { property, token } = await open.createProperty();
    const line = JSON.stringify({
      timestamp: new Date().toISOString(),
      host: 'example.com',
      path: '/',
      userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)',
      statusCode: 200,
    });
    const post = (auth: string) =>
      request(open.app)
        .post(`/api/ingest/crawl/${property.id}`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/x-ndjson')
        .send(`${line}\n${JSON.stringify({ ...JSON.parse(line), userAgent: FIREFOX })}\n`);
    expect((await post(`Bearer ${token}`)).status).toBe(202);
    expect((await post('Bearer wrong')).status).toBe(401);
    const metrics = (await request(open.app).get('/metrics')).text;
    expect(metrics).toMatch(/vt_crawl_batches_total\{status="202",app="ingest-gateway"\} 1/);
    expect(metrics).toMatch(/vt_crawl_batches_total\{status="401",app="ingest-gateway"\} 1/);
    expect(metrics).toMatch(/vt_crawl_lines_received_total\{app="ingest-gateway"\} 2/);
    expect(metrics).toMatch(/vt_crawl_lines_kept_total\{app="ingest-gateway"\} 1/);
  });
});

describe('ingest-gateway when Postgres fails', () => {
  it('[LEAD-13] a storage failure behind the webhook answers 500 storage_failed', async () => {
    const broken = await createGatewayHarness({
      leads: { properties: { find: () => Promise.reject(new Error('connection refused')) } },
    });
    try {
      const lead = await request(broken.app).post(`/api/webhooks/leads/${crypto.randomUUID()}`).send('{}');
      expect(lead.status).toBe(500);
      expect(lead.body).toEqual({ error: expect.any(String), hint: expect.any(String), reason: 'storage_failed' });
    } finally {
      await broken.close();
    }
  });
});
