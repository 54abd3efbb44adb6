import { deleteProperty, findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** DELETE /api/properties/{id}: everything collected for it goes too. */
export const deletePropertyHandler = defineConsoleHandler('deleteProperty', ({ db }) => async ({ team, params }) => {
  await deleteProperty(db, await findTeamProperty(db, team.teamId, params.id));
  return undefined;
});
