import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { asDays, dayRange } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { sourceGaps } from './sources-queries.ts';

/** GET /api/properties/{id}/sources/gaps: per platform, sources that cite competitors and never the brand. */
export const getSourceGapsHandler = defineConsoleHandler('getSourceGaps', ({ db, now, lagTolerantReader }) => {
  const sql = lagTolerantReader ?? sqlReaderOf(db);
  return async ({ team, params, query }) => {
    const { id } = await findTeamProperty(db, team.teamId, params.id);
    const days = asDays(dayRange(query, now()));
    const platforms = await sourceGaps(sql, { propertyId: id, ...days, model: query.model });
    return { propertyId: id, ...days, model: query.model ?? null, platforms };
  };
});
