import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { competitorShares } from '@vt/read-model';
import { asDays, dayRange, EVERY_ROW } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/share-of-voice: /v1/competitors' rows for one property. */
export const getShareOfVoiceHandler = defineConsoleHandler('getShareOfVoice', ({ db, now, lagTolerantReader }) => {
  const sql = lagTolerantReader ?? sqlReaderOf(db);
  return async ({ team, params, query }) => {
    const { id } = await findTeamProperty(db, team.teamId, params.id);
    const days = asDays(dayRange(query, now()));
    const { data } = await competitorShares(sql, [id], days, EVERY_ROW);
    return { propertyId: id, ...days, competitors: data };
  };
});
