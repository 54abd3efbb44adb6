import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { answerDetail } from './answer-detail.ts';

/** GET /api/properties/{id}/responses/{responseId}: one whole answer, its verdict, names and citations. */
export const getAnswerHandler = defineConsoleHandler('getAnswer', ({ db, lagTolerantReader }) => {
  const sql = lagTolerantReader ?? sqlReaderOf(db);
  return async ({ team, params }) => {
    const property = await findTeamProperty(db, team.teamId, params.id);
    return { answer: await answerDetail(sql, property, params.responseId) };
  };
});
