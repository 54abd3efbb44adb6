import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { createOpenApiRegistry } from './openapi-registry.ts';
import type { ReadEndpoint } from './read-endpoints.ts';

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate and shape responses. */
export function buildOpenApiDocument(endpoints?: readonly ReadEndpoint[]) {
  const registry = createOpenApiRegistry(endpoints);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'AI Visibility Tracking read API',
      version: '1.0.0',
      description: [
        'Read-only access to AI answer verdicts, tasks, visibility, competitors and cited sources of the paid properties in an API key’s scope.',
        '',
        '- Every /v1 path answers GET and HEAD (the GET’s headers, no body); OPTIONS answers 204 with `Allow: GET, HEAD, OPTIONS`; any other method answers 405 `METHOD_NOT_ALLOWED` with the same `Allow` header.',
        '- Errors are always `{"error": {"code", "message"}}`. An unknown path under /v1 answers 404 without reading the key.',
        '- Rate limit: a fixed one-minute window per key, shared by every replica (default 100 requests). `X-RateLimit-*` headers come on every 200 and 429 only; 429 adds `Retry-After`. Requests answered 400 or 401 are not counted; a 404 from the detail endpoint is.',
        '- A revoked key, a new scope or a plan change takes effect within the key cache’s lifetime (5 s by default).',
        '- Properties on the free plan, and paid properties whose subscription has lapsed, appear nowhere.',
        '- Unknown query parameters are ignored; clients must ignore unknown response fields (changes inside /v1 are additive).',
      ].join('\n'),
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
  });
}
