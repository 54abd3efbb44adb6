import { expect } from 'vitest';

/**
 * The security headers every HTTP app sends (service-runtime's securityHeaders()): asserted on an
 * answer's headers, whatever its status.
 */
export function expectSecurityHeaders(headers: Record<string, string | undefined>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  expect(headers['content-security-policy']).toMatch(/default-src 'self'/);
  expect(headers['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
  expect(headers['content-security-policy']).toMatch(/style-src 'self'(;|$)/);
  expect(headers['content-security-policy']).not.toMatch(/unsafe-inline/);
  expect(headers['permissions-policy']).toMatch(/camera=\(\)/);
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-powered-by']).toBeUndefined();
}
