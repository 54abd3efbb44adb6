import { sqlReaderOf } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { asDays, dayRange } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { answerSources } from './sources-queries.ts';

/** GET /api/properties/{id}/sources: the most cited domains and URLs, and the property's own pages. */
export const getAnswerSourcesHandler = defineConsoleHandler('getAnswerSources', ({ db, now, lagTolerantReader }) => {
  const sql = lagTolerantReader ?? sqlReaderOf(db);
  return async ({ team, params, query }) => {
    const property = await findTeamProperty(db, team.teamId, params.id);
    const days = asDays(dayRange(query, now()));
    const sources = await answerSources(sql, { propertyId: property.id, ...days, model: query.model }, property.domain);
    return { propertyId: property.id, ...days, model: query.model ?? null, ...sources };
  };
});
