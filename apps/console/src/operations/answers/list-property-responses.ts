import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { listResponses, pageOf } from '@vt/read-model';
import { asDays, dayRange } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/responses: /v1/responses' rows for one property, filtered and paged as there. */
export const listPropertyResponsesHandler = defineConsoleHandler('listPropertyResponses', ({ db, now }) => {
  const sql = sqlReaderOf(db);
  return async ({ team, params, query }) => {
    const { id } = await findTeamProperty(db, team.teamId, params.id);
    const page = pageOf(query);
    const list = await listResponses(sql, [id], query, asDays(dayRange(query, now())), page);
    return { ...list, ...page };
  };
});
