// The read API's test harness: the real app over the real Postgres and Redis, and a seeded world
// of teams, properties, keys and answers whose figures the tests know. `@vt/read-api/testing`.
export { createReadApiHarness, type ReadApiHarnessOptions } from './read-api-harness.ts';
export * from './read-world.ts';
