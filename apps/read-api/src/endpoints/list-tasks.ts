import { readEndpoints } from '@vt/contracts';
import type { SqlReader } from '@vt/db';
import { listTasks } from '@vt/read-model';
import { readRoute } from '../read-route.ts';

/** GET /v1/tasks: accepted tasks, newest created first. */
export const listTasksRoute = (sql: SqlReader) =>
  readRoute(readEndpoints.listTasks, ({ propertyIds, query, page }) => listTasks(sql, propertyIds, query, page));
