import { findTeamProperty, removeCompetitor } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** DELETE /api/properties/{id}/competitors/{competitorId}: its mentions go with it. */
export const removeCompetitorHandler = defineConsoleHandler(
  'removeCompetitor',
  ({ db, requestRejudge }) =>
    async ({ team, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      await removeCompetitor(db, property, params.competitorId);
      // Every stored verdict counts the competitors' mentions: judged again, in the background.
      await requestRejudge(property.id);
      return undefined;
    },
);
