import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { citedUrls } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/sources/urls: cited URLs over the day range, most cited first. */
export const listSourceUrlsRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.listSourceUrls, ({ propertyIds, query, range, page }) =>
    citedUrls(sql, propertyIds, query, range, page),
  );
