import { findTeamProperty, removePrompt } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** DELETE /api/properties/{id}/prompts/{promptId}: its collected answers go with it. */
export const removePromptHandler = defineConsoleHandler('removePrompt', ({ db }) => async ({ team, params }) => {
  await removePrompt(db, await findTeamProperty(db, team.teamId, params.id), params.promptId);
  return undefined;
});
