import { addCompetitor, findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/competitors. */
export const addCompetitorHandler = defineConsoleHandler(
  'addCompetitor',
  ({ db, requestRejudge }) =>
    async ({ team, params, body }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      const competitor = await addCompetitor(db, property, body);
      // Every stored verdict counts the competitors' mentions: judged again, in the background.
      await requestRejudge(property.id);
      return { competitor };
    },
);
