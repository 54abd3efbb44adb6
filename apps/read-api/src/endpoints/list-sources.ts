import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { citedDomains } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/sources: cited domains over the day range, most cited first. */
export const listSourcesRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.listSources, ({ propertyIds, query, range, page }) =>
    citedDomains(sql, propertyIds, query, range, page),
  );
