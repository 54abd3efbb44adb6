import { isUuid, readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { findResponse } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/responses/{id}: one response with its full text, or 404. */
export const getResponseRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.getResponse, async ({ propertyIds, id }) => {
    // Anything that is not a UUID cannot name a response: 404, never a 400, and no query.
    if (!id || !isUuid(id)) return null;
    const response = await findResponse(sql, propertyIds, id.toLowerCase());
    return response ? { data: response } : null;
  });
