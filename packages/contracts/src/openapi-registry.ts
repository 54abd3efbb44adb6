import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorEnvelopeSchema } from './errors.ts';
import { type ReadEndpoint, readEndpoints, registerReadEndpoint } from './read-endpoints.ts';
import { registerRequestId } from './request-id.ts';

/** A registry holding the bearer scheme, the error envelope, the request id and every /v1 operation. */
export function createOpenApiRegistry(
  endpoints: readonly ReadEndpoint[] = Object.values(readEndpoints),
): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A read API key: `Authorization: Bearer vt_live_…`. Read and Write keys both read.',
  });
  registry.register('ErrorEnvelope', errorEnvelopeSchema);
  registerRequestId(registry);
  for (const endpoint of endpoints) registerReadEndpoint(registry, endpoint);
  return registry;
}
