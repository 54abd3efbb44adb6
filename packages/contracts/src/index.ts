export {
  API_ERROR_CODES,
  API_ERROR_STATUS,
  type ApiErrorCode,
  type ErrorEnvelope,
  errorEnvelopeSchema,
} from './errors.ts';
export { buildOpenApiDocument } from './openapi-document.ts';
export { createOpenApiRegistry } from './openapi-registry.ts';
export {
  type Deprecation,
  defineReadEndpoint,
  MIN_SUNSET_DAYS,
  RATE_LIMIT_HEADERS,
  type ReadEndpoint,
  type ReadEndpointId,
  readEndpoints,
  registerReadEndpoint,
} from './read-endpoints.ts';
export * from './read-params.ts';
export * from './resources.ts';
