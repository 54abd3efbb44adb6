import { pagingConflict } from '@vt/contracts';
import { OperationError } from '@vt/contracts/console';
import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { listResponses, pageOf } from '@vt/read-model';
import { asDays, dayRange } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { answerRanks } from './answer-ranks.ts';

/**
 * GET /api/properties/{id}/responses: /v1/responses' rows for one property, filtered and paged as
 * there, each with the brand's rank among the brands the answer names.
 */
export const listPropertyResponsesHandler = defineConsoleHandler(
  'listPropertyResponses',
  ({ db, now, lagTolerantReader }) => {
    const sql = lagTolerantReader ?? sqlReaderOf(db);
    return async ({ team, params, query }) => {
      const { id } = await findTeamProperty(db, team.teamId, params.id);
      const conflict = pagingConflict(query);
      if (conflict) throw new OperationError('INVALID_PARAM', conflict);
      const page = pageOf(query);
      const list = await listResponses(sql, [id], query, asDays(dayRange(query, now())), page);
      const ranks = await answerRanks(
        db,
        list.data.map((r) => r.id),
      );
      const data = list.data.map((r) => ({ ...r, ...(ranks.get(r.id) ?? { rank: null, brandsNamed: 0 }) }));
      return { ...list, data, ...page };
    };
  },
);
