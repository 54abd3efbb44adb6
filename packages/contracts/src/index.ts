export {
  API_ERROR_CODES,
  API_ERROR_STATUS,
  type ApiErrorCode,
  type ErrorEnvelope,
  errorEnvelopeSchema,
} from './errors.ts';
export { createOpenApiRegistry } from './openapi-registry.ts';
export { responseDetailSchema, responseSchema, taskSchema } from './resources.ts';
