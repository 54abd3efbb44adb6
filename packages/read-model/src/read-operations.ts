import type { ListResult } from './list-result.ts';
import type { DayRange, KeyPrincipal, Page } from './read-scope.ts';

/** What an operation gets once the request is authenticated, validated and counted. */
export interface ReadRequest<Query> {
  principal: KeyPrincipal;
  /** The properties it reads: the key's scope, narrowed by `propertyId` when the query has one (`propertiesToRead`). */
  propertyIds: readonly string[];
  query: Query;
  /** Resolved for endpoints that take `from`/`to`; empty (`from` and `to` both '') for the others, which read no range. */
  range: DayRange;
  page: Page;
  /** The path id of a detail endpoint. */
  id?: string;
}

/** The body of a 200, or null for a detail id that is not in scope (404). */
export type ReadOperation<Query = unknown> = (
  request: ReadRequest<Query>,
) => Promise<ListResult<unknown> | { data: unknown } | null>;
