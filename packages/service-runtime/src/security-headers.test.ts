import { expectSecurityHeaders } from '@vt/test-support';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { configuredHelmet, PERMISSIONS_POLICY, securityHeaders } from './security-headers.ts';

/** The headers of a real answer from an app with `middleware` in front of one route. */
async function answerHeaders(middleware: RequestHandler, path = '/anything?x=1') {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/*splat', (_req, res) => {
    res.json({ ok: true });
  });
  const res = await request(app).get(path).set('origin', 'https://elsewhere.example');
  // What differs from one answer to the next whatever the middleware: not security headers.
  const { date: _date, etag: _etag, ...headers } = res.headers as Record<string, string>;
  return headers;
}

describe('securityHeaders', () => {
  it('sends exactly the headers helmet itself sends, and the Permissions-Policy, on every path', async () => {
    for (const path of ['/', '/v1/responses?limit=5', '/console/app.js']) {
      const expected = await answerHeaders(configuredHelmet(), path);
      expect(await answerHeaders(securityHeaders(), path)).toEqual({
        ...expected,
        'permissions-policy': PERMISSIONS_POLICY,
      });
    }
  });

  it('sends the headers the apps promise (nosniff, frame, referrer, HSTS, CSP without upgrades)', async () => {
    expectSecurityHeaders(await answerHeaders(securityHeaders()));
  });

  it('issue 33 finding 6: styles only from our own files, and camera, microphone and location turned off', async () => {
    const headers = await answerHeaders(securityHeaders({ extraImageSources: ['https:'] }));
    expect(headers['content-security-policy']).toMatch(/style-src 'self'(;|$)/);
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['permissions-policy']).toMatch(/(^|, )camera=\(\)/);
    expect(headers['permissions-policy']).toMatch(/(^|, )microphone=\(\)/);
    expect(headers['permissions-policy']).toMatch(/(^|, )geolocation=\(\)/);
  });

  it('adds only image sources an app asks for (the console: https logos), scripts staying same-origin', async () => {
    const plain = (await answerHeaders(securityHeaders()))['content-security-policy'];
    expect(plain).toContain("img-src 'self' data:;");
    const logos = await answerHeaders(securityHeaders({ extraImageSources: ['https:'] }));
    expectSecurityHeaders(logos);
    const policy = logos['content-security-policy'];
    expect(policy).toContain("img-src 'self' data: https:;");
    expect(policy).toContain("script-src 'self';");
    expect(policy?.replace("img-src 'self' data: https:;", "img-src 'self' data:;")).toBe(plain);
  });
});
