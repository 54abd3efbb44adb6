export * from './answer-insights.ts';
export * from './endpoints.ts';
export * from './errors.ts';
export * from './fields.ts';
export * from './limits.ts';
export { buildConsoleOpenApiDocument } from './openapi.ts';
export * from './requests.ts';
export * from './resources.ts';
export * from './role-rules.ts';
