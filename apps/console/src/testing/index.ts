// The console's test harness: the real app over the real Postgres and Redis, and helpers that
// build people and teams through the API itself. `@vt/console/testing`.
export * from './console-harness.ts';
