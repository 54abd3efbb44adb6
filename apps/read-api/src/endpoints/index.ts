import { type ReadEndpointId, readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import type { V1Operation } from '../read-route.ts';
import { getResponseRoute } from './get-response.ts';
import { getVisibilityRoute } from './get-visibility.ts';
import { listCompetitorsRoute } from './list-competitors.ts';
import { listPromptsRoute } from './list-prompts.ts';
import { listPropertiesRoute } from './list-properties.ts';
import { listResponsesRoute } from './list-responses.ts';
import { listSourceUrlsRoute } from './list-source-urls.ts';
import { listSourcesRoute } from './list-sources.ts';
import { listTasksRoute } from './list-tasks.ts';

/**
 * One module per /v1 operation, its test beside it. The type makes a catalogued endpoint without
 * a module (or a module without an endpoint) a compile error.
 */
const v1RouteModules: { [Id in ReadEndpointId]: (sql: SqlReader) => V1Operation } = {
  listResponses: listResponsesRoute,
  getResponse: getResponseRoute,
  listTasks: listTasksRoute,
  listProperties: listPropertiesRoute,
  listPrompts: listPromptsRoute,
  getVisibility: getVisibilityRoute,
  listCompetitors: listCompetitorsRoute,
  listSources: listSourcesRoute,
  listSourceUrls: listSourceUrlsRoute,
};

/** Every catalogued endpoint with the operation that answers it, in the catalogue's order. */
export function v1Routes(sql: SqlReader): V1Operation[] {
  return (Object.keys(readEndpoints) as ReadEndpointId[]).map((id) => v1RouteModules[id](sql));
}
