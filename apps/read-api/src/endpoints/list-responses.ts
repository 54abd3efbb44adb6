import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { listResponses } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/responses: mention verdicts over the day range, newest day first. */
export const listResponsesRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.listResponses, ({ propertyIds, query, range, page }) =>
    listResponses(sql, propertyIds, query, range, page),
  );
