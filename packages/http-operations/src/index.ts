// One kit for every HTTP edge: an operation is defined once (method, path, schemas, the family's
// facts) and one router, one error envelope and one OpenAPI registry serve each family of them.
export { type ErrorEnvelopeOptions, type ErrorSender, errorEnvelope } from './error-envelope.ts';
export { defineErrorStatuses, errorCodeEnum, ROUTER_ERROR_STATUS } from './error-statuses.ts';
export {
  type ApiDocumentOptions,
  type ApiRegistryOptions,
  createApiRegistry,
  errorResponseConfig,
  generateApiDocument,
} from './openapi.ts';
export {
  type Answer,
  type HttpMethod,
  type Operation,
  type OperationDefinition,
  type OperationInput,
  type OperationShape,
  operationFamily,
  type Parsed,
  type PathParameterName,
} from './operation.ts';
export { type OperationMetricNames, type OperationTimer, operationMetrics } from './operation-metrics.ts';
export { createOperationRouter, type InputPart, type OperationRouterOptions } from './operation-router.ts';
export { setPageLinks } from './page-links.ts';
export { RecordedAnswer } from './recorded-answer.ts';
export { type FieldProblem, Refusal } from './refusal.ts';
export { StreamedAnswer, sendStreamedAnswer } from './streamed-answer.ts';
