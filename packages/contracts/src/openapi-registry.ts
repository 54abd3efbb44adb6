import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { errorEnvelopeSchema } from './errors.ts';
import { responseDetailSchema, responseSchema, taskSchema } from './resources.ts';

/** A registry holding the shared schemas and the bearer scheme; each API operation registers its path on it. */
export function createOpenApiRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A read API key: `Authorization: Bearer vt_live_…`.',
  });
  registry.register('ErrorEnvelope', errorEnvelopeSchema);
  registry.register('Response', responseSchema);
  registry.register('ResponseDetail', responseDetailSchema);
  registry.register('Task', taskSchema);
  return registry;
}
