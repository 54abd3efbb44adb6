import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';

type SecuritySchemeObject = Parameters<OpenAPIRegistry['registerComponent']>[2];

export interface ApiRegistryOptions {
  /** Each way of authenticating, by the name operations' `security` uses. */
  securitySchemes: Record<string, SecuritySchemeObject>;
  /** Named schemas every operation shares, such as the error envelope. */
  schemas: Record<string, z.ZodType>;
  /** Further shared parts (a header parameter), then each operation, in document order. */
  register: ((registry: OpenAPIRegistry) => void)[];
}

/** A registry holding a family's security schemes, shared schemas and operations. */
export function createApiRegistry(options: ApiRegistryOptions): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(options.securitySchemes)) {
    registry.registerComponent('securitySchemes', name, scheme);
  }
  for (const [name, schema] of Object.entries(options.schemas)) registry.register(name, schema);
  for (const register of options.register) register(registry);
  return registry;
}

type DocumentConfig = Parameters<OpenApiGeneratorV31['generateDocument']>[0];

export interface ApiDocumentOptions {
  info: DocumentConfig['info'];
  /** Who may call by default; each operation may say otherwise. */
  security?: DocumentConfig['security'];
  tags: DocumentConfig['tags'];
}

/** The OpenAPI 3.1 document of a registry, served from the root of its host. */
export function generateApiDocument(registry: OpenAPIRegistry, options: ApiDocumentOptions) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: options.info,
    servers: [{ url: '/' }],
    ...(options.security ? { security: options.security } : {}),
    tags: options.tags,
  });
}

/** A documented error answer: its words, its headers, and the family's envelope as its body. */
export function errorResponseConfig(
  envelope: z.ZodType,
  description: string,
  headers: ResponseConfig['headers'],
): ResponseConfig {
  return { description, headers, content: { 'application/json': { schema: envelope } } };
}
