// The /v1 read model: plain queries over Postgres behind every /v1 endpoint, shared by the read
// API (which scopes them to an API key) and the console (which scopes them to a team's property).
export { listPrompts, listProperties } from './catalog.ts';
export { competitorShares } from './competitors.ts';
export { beyondCursor, cursorPage, inPageOrder, pageOrder, type SortColumn } from './keyset.ts';
export { isoInstant, type ListResult } from './list-result.ts';
export type { ReadOperation, ReadRequest } from './read-operations.ts';
export {
  type DayRange,
  type KeyPrincipal,
  type Page,
  pageOf,
  propertiesToRead,
  resolveDayRange,
} from './read-scope.ts';
export { RenderedJson, serializeAnswer } from './rendered-json.ts';
export { findResponse, listResponses } from './responses.ts';
export { citedDomains, citedUrls } from './sources.ts';
export { listTasks } from './tasks.ts';
export { visibilitySeries } from './visibility.ts';
