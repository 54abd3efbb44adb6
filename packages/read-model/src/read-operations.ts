import {
  type CompetitorsQuery,
  isUuid,
  type ListPromptsQuery,
  type ListPropertiesQuery,
  type ListResponsesQuery,
  type ListTasksQuery,
  type ReadEndpointId,
  type SourcesQuery,
  type SourceUrlsQuery,
  type VisibilityQuery,
} from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { listPrompts, listProperties } from './catalog.ts';
import { competitorShares } from './competitors.ts';
import type { ListResult } from './list-result.ts';
import { type DayRange, type KeyPrincipal, type Page, propertiesToRead } from './read-scope.ts';
import { findResponse, listResponses } from './responses.ts';
import { citedDomains, citedUrls } from './sources.ts';
import { listTasks } from './tasks.ts';
import { visibilitySeries } from './visibility.ts';

/** What an operation gets once the request is authenticated, validated and counted. */
export interface ReadRequest<Query> {
  principal: KeyPrincipal;
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

/** The plain functions behind every /v1 endpoint, keyed like the catalogue in @vt/contracts. */
export function createReadOperations(sql: SqlReader): Record<ReadEndpointId, ReadOperation<never>> {
  const scope = (request: ReadRequest<{ propertyId?: string }>) =>
    propertiesToRead(request.principal, request.query.propertyId);
  return {
    listResponses: (request: ReadRequest<ListResponsesQuery>) =>
      listResponses(sql, scope(request), request.query, request.range, request.page),
    getResponse: async (request: ReadRequest<Record<string, never>>) => {
      // Anything that is not a UUID cannot name a response: 404, never a 400, and no query.
      if (!request.id || !isUuid(request.id)) return null;
      const response = await findResponse(sql, request.principal.propertyIds, request.id.toLowerCase());
      return response ? { data: response } : null;
    },
    listTasks: (request: ReadRequest<ListTasksQuery>) => listTasks(sql, scope(request), request.query, request.page),
    listProperties: (request: ReadRequest<ListPropertiesQuery>) =>
      listProperties(sql, request.principal.propertyIds, request.page),
    listPrompts: (request: ReadRequest<ListPromptsQuery>) => listPrompts(sql, scope(request), request.page),
    getVisibility: (request: ReadRequest<VisibilityQuery>) =>
      visibilitySeries(sql, scope(request), request.query, request.range, request.page),
    listCompetitors: (request: ReadRequest<CompetitorsQuery>) =>
      competitorShares(sql, scope(request), request.range, request.page),
    listSources: (request: ReadRequest<SourcesQuery>) =>
      citedDomains(sql, scope(request), request.query, request.range, request.page),
    listSourceUrls: (request: ReadRequest<SourceUrlsQuery>) =>
      citedUrls(sql, scope(request), request.query, request.range, request.page),
  };
}
