import { addPrompt, findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/prompts. */
export const addPromptHandler = defineConsoleHandler('addPrompt', ({ db }) => async ({ team, params, body }) => ({
  prompt: await addPrompt(db, await findTeamProperty(db, team.teamId, params.id), body),
}));
