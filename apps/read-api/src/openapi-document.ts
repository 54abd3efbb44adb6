import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { createOpenApiRegistry } from '@vt/contracts';

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate and shape responses. */
export function buildOpenApiDocument() {
  const registry = createOpenApiRegistry();
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'AI Visibility Tracking read API',
      version: '1.0.0',
      description:
        'Read-only access to AI answer verdicts, tasks and visibility data. Clients must ignore unknown fields.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
  });
}
