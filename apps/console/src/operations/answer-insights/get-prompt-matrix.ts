import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { promptMatrix } from './prompt-matrix.ts';

/** GET /api/properties/{id}/prompt-matrix: each prompt's latest verdict per platform, with its trend. */
export const getPromptMatrixHandler = defineConsoleHandler('getPromptMatrix', ({ db, now, lagTolerantReader }) => {
  const sql = lagTolerantReader ?? sqlReaderOf(db);
  return async ({ team, params, query }) => {
    const { id } = await findTeamProperty(db, team.teamId, params.id);
    return { propertyId: id, ...(await promptMatrix(sql, id, now(), Number(query.trendDays ?? '7'))) };
  };
});
