import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { competitorShares } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/competitors: share of voice of every competitor beside the brand over the day range. */
export const listCompetitorsRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.listCompetitors, ({ propertyIds, range, page }) =>
    competitorShares(sql, propertyIds, range, page),
  );
