import { isUuid, type ReadEndpointId, type ReadQueryOf } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { listPrompts, listProperties } from './catalog.ts';
import { competitorShares } from './competitors.ts';
import type { ListResult } from './list-result.ts';
import type { DayRange, KeyPrincipal, Page } from './read-scope.ts';
import { findResponse, listResponses } from './responses.ts';
import { citedDomains, citedUrls } from './sources.ts';
import { listTasks } from './tasks.ts';
import { visibilitySeries } from './visibility.ts';

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

/** The plain functions behind every /v1 endpoint, keyed like the catalogue in @vt/contracts, each typed by its query. */
export type ReadOperations = { [Id in ReadEndpointId]: ReadOperation<ReadQueryOf<Id>> };

export function createReadOperations(sql: SqlReader): ReadOperations {
  return {
    listResponses: (request) => listResponses(sql, request.propertyIds, request.query, request.range, request.page),
    getResponse: async (request) => {
      // Anything that is not a UUID cannot name a response: 404, never a 400, and no query.
      if (!request.id || !isUuid(request.id)) return null;
      const response = await findResponse(sql, request.propertyIds, request.id.toLowerCase());
      return response ? { data: response } : null;
    },
    listTasks: (request) => listTasks(sql, request.propertyIds, request.query, request.page),
    listProperties: (request) => listProperties(sql, request.propertyIds, request.page),
    listPrompts: (request) => listPrompts(sql, request.propertyIds, request.page),
    getVisibility: (request) => visibilitySeries(sql, request.propertyIds, request.query, request.range, request.page),
    listCompetitors: (request) => competitorShares(sql, request.propertyIds, request.range, request.page),
    listSources: (request) => citedDomains(sql, request.propertyIds, request.query, request.range, request.page),
    listSourceUrls: (request) => citedUrls(sql, request.propertyIds, request.query, request.range, request.page),
  };
}
