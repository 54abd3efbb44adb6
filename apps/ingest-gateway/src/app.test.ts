import { createLogger } from '@vt/logger';
import { createMetricsRegistry } from '@vt/service-runtime';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildIngestGateway } from './app.ts';

function app(closing = false) {
  return buildIngestGateway({
    logger: createLogger({ name: 'ingest-gateway', level: 'silent' }),
    registry: createMetricsRegistry('ingest-gateway'),
    readinessChecks: [{ name: 'redis', check: () => Promise.reject(new Error('down')) }],
    isClosing: () => closing,
  });
}

describe('ingest-gateway skeleton', () => {
  it('readiness names the dependency that does not answer, and answers 503 while closing', async () => {
    const res = await request(app()).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', checks: { redis: 'unavailable' } });
    expect((await request(app(true)).get('/readyz')).body).toEqual({ status: 'closing' });
  });

  it('an unknown path answers {error, hint, reason} as JSON', async () => {
    const res = await request(app()).post('/api/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String), hint: expect.any(String), reason: 'not_found' });
  });
});
