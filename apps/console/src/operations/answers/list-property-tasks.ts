import { pagingConflict } from '@vt/contracts';
import { OperationError } from '@vt/contracts/console';
import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { listTasks, pageOf } from '@vt/read-model';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/tasks: /v1/tasks' rows for one property, filtered and paged as there. */
export const listPropertyTasksHandler = defineConsoleHandler('listPropertyTasks', ({ db, lagTolerantReader }) => {
  const sql = lagTolerantReader ?? sqlReaderOf(db);
  return async ({ team, params, query }) => {
    const { id } = await findTeamProperty(db, team.teamId, params.id);
    const conflict = pagingConflict(query);
    if (conflict) throw new OperationError('INVALID_PARAM', conflict);
    const page = pageOf(query);
    return { ...(await listTasks(sql, [id], query, page)), ...page };
  };
});
