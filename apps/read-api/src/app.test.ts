import { createLogger } from '@vt/logger';
import { createMetricsRegistry } from '@vt/service-runtime';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildReadApi } from './app.ts';

function app(closing = false) {
  return buildReadApi({
    logger: createLogger({ name: 'read-api', level: 'silent' }),
    registry: createMetricsRegistry('read-api'),
    readinessChecks: [{ name: 'postgres', check: async () => 1 }],
    isClosing: () => closing,
  });
}

describe('read-api skeleton', () => {
  it('readiness answers 503 once shutdown has begun, while liveness stays 200', async () => {
    const closing = app(true);
    expect((await request(closing).get('/readyz')).status).toBe(503);
    expect((await request(closing).get('/healthz')).status).toBe(200);
    expect((await request(app()).get('/readyz')).status).toBe(200);
  });

  it('[READ-5] an unknown path answers the JSON error envelope, never HTML', async () => {
    const res = await request(app()).get('/v1/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('[READ-30] serves an OpenAPI 3.1 document with permissive CORS', async () => {
    const res = await request(app()).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
