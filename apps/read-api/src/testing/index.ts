// The read API's test harness: the real app over the real Postgres and Redis, and a seeded world
// of teams, properties, keys and answers whose figures the tests know. `@vt/read-api/testing`.
// The /v1 endpoint tests share `endpointSuite`: that world on a fixed clock, seeded once per file,
// and a model of what every list should answer over it.
export * from './endpoint-expectations.ts';
export * from './endpoint-suite.ts';
export * from './endpoint-world.ts';
export { type RawAnswer, rawRequest } from './raw-http.ts';
export { createReadApiHarness, type ReadApiHarnessOptions } from './read-api-harness.ts';
export * from './read-world.ts';
export * from './strict-schema.ts';
