import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { collectionStatus } from './collection-status.ts';

/** GET /api/properties/{id}/collection: the answers page's collection panel. */
export const getCollectionHandler = defineConsoleHandler('getCollection', ({ db, collectNow, now }) => {
  return async ({ team, params }) => {
    const { nothingToAsk: _, ...status } = await collectionStatus(
      db,
      collectNow,
      await findTeamProperty(db, team.teamId, params.id),
      now(),
    );
    return status;
  };
});
