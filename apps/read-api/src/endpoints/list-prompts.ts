import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { listPrompts } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/prompts: tracked prompts, inactive ones included, newest first. */
export const listPromptsRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.listPrompts, ({ propertyIds, page }) => listPrompts(sql, propertyIds, page));
