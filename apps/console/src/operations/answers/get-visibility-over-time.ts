import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { visibilitySeries } from '@vt/read-model';
import { asDays, dayRange, EVERY_ROW } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/visibility: /v1/visibility's points for one property, from the read model /v1 uses. */
export const getVisibilityOverTimeHandler = defineConsoleHandler(
  'getVisibilityOverTime',
  ({ db, now, lagTolerantReader }) => {
    const sql = lagTolerantReader ?? sqlReaderOf(db);
    return async ({ team, params, query }) => {
      const { id } = await findTeamProperty(db, team.teamId, params.id);
      const days = asDays(dayRange(query, now()));
      const { data } = await visibilitySeries(sql, [id], { model: query.model }, days, EVERY_ROW);
      return { propertyId: id, ...days, points: data };
    };
  },
);
