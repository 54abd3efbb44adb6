import { generateApiDocument } from '@vt/http-operations';
import { createOpenApiRegistry } from './openapi-registry.ts';
import { READ_API_TAGS, type ReadEndpoint } from './read-endpoints.ts';

/** Who answers questions about a deployment's API: its operator, named in the document's `info.contact`. */
export interface ApiContact {
  name: string;
  url?: string;
  email?: string;
}

/** The contact of a deployment that names none. */
export const DEFAULT_API_CONTACT: ApiContact = { name: 'The operator of this deployment' };

export interface OpenApiDocumentOptions {
  /** The deployment's contact (READ_API_CONTACT_*); `DEFAULT_API_CONTACT` without one. */
  contact?: ApiContact;
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate and shape responses. */
export function buildOpenApiDocument(endpoints?: readonly ReadEndpoint[], options: OpenApiDocumentOptions = {}) {
  const registry = createOpenApiRegistry(endpoints);
  const usedTags = new Set(endpoints?.map((endpoint) => endpoint.tag) ?? READ_API_TAGS.map((tag) => tag.name));
  return generateApiDocument(registry, {
    info: {
      title: 'AI Visibility Tracking read API',
      version: '1.0.0',
      contact: { ...(options.contact ?? DEFAULT_API_CONTACT) },
      // As the console API's document: the service ships under no open-source licence.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: [
        'Read-only access to AI answer verdicts, tasks, visibility, competitors and cited sources of the paid properties in an API key’s scope.',
        '',
        '- Every /v1 path answers GET and HEAD (the GET’s headers, no body); OPTIONS answers 204 with `Allow: GET, HEAD, OPTIONS`; any other method answers 405 `METHOD_NOT_ALLOWED` with the same `Allow` header.',
        '- Errors are always `{"error": {"code", "message"}}`. An unknown path under /v1 answers 404 without reading the key. A 401 carries `WWW-Authenticate: Bearer realm="read-api"` (with `error="invalid_token"` for a refused key).',
        '- Every answer carries `X-Request-Id`: the one the request sent when it is 1 to 128 letters, digits or `- _ . : + / =`, else a UUID minted for it. The service’s log lines about the request carry the same id.',
        '- Rate limit: a fixed one-minute window per key, shared by every replica (default 100 requests). `X-RateLimit-*` headers come on every 200 and 429 only; 429 adds `Retry-After`. Requests answered 400 or 401 are not counted; a 404 from the detail endpoint is.',
        '- Answers carry no validators (no `ETag`, no `Last-Modified`), so `If-None-Match` and `If-Modified-Since` are ignored: a GET is answered in full, never 304.',
        '- A revoked key, a new scope or a plan change takes effect within the key cache’s lifetime (5 s by default).',
        '- Properties on the free plan, and paid properties whose subscription has lapsed, appear nowhere.',
        '- Unknown query parameters are ignored; clients must ignore unknown response fields (changes inside /v1 are additive).',
      ].join('\n'),
    },
    security: [{ bearerAuth: [] }],
    tags: READ_API_TAGS.filter((tag) => usedTags.has(tag.name)).map((tag) => ({ ...tag })),
  });
}
