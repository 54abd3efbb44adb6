import { teamOverview } from '@vt/properties';
import { dayRange } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/overview: every property's figures and trends, the team total and what changed. */
export const getOverviewHandler = defineConsoleHandler('getOverview', ({ db, now }) => async ({ team, query }) => {
  const at = now();
  return teamOverview(db, team.teamId, dayRange(query, at), at);
});
