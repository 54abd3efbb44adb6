import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { createApiRegistry } from '@vt/http-operations';
import { errorEnvelopeSchema } from './errors.ts';
import { type ReadEndpoint, readEndpoints, registerReadEndpoint } from './read-endpoints.ts';
import { registerRequestId } from './request-id.ts';

/** A registry holding the bearer scheme, the error envelope, the request id and every /v1 operation. */
export function createOpenApiRegistry(
  endpoints: readonly ReadEndpoint[] = Object.values(readEndpoints),
): OpenAPIRegistry {
  return createApiRegistry({
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'A read API key: `Authorization: Bearer vt_live_…`. Read and Write keys both read.',
      },
    },
    schemas: { ErrorEnvelope: errorEnvelopeSchema },
    register: [
      registerRequestId,
      ...endpoints.map((endpoint) => (registry: OpenAPIRegistry) => registerReadEndpoint(registry, endpoint)),
    ],
  });
}
