import { findTeamProperty, propertyDetail } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}: with its competitors and prompts. */
export const getPropertyHandler = defineConsoleHandler('getProperty', ({ db }) => async ({ team, params }) => ({
  property: await propertyDetail(db, await findTeamProperty(db, team.teamId, params.id)),
}));
