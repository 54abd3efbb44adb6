import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { listProperties } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/properties: the paid properties in scope, newest first. */
export const listPropertiesRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.listProperties, ({ propertyIds, page }) => listProperties(sql, propertyIds, page));
