import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { visibilitySeries } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/visibility: one point per (day, property, model) over the day range. */
export const getVisibilityRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.getVisibility, ({ propertyIds, query, range, page }) =>
    visibilitySeries(sql, propertyIds, query, range, page),
  );
