import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from './testing/gateway-harness.ts';

const redisDown = [{ name: 'redis', check: () => Promise.reject(new Error('down')) }];
const open = await createGatewayHarness({ readinessChecks: redisDown });
const closing = await createGatewayHarness({ isClosing: () => true });
afterAll(async () => {
  await open.close();
  await closing.close();
});

describe('ingest-gateway app', () => {
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
});
