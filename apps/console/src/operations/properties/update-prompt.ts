import { findTeamProperty, updatePrompt } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** PATCH /api/properties/{id}/prompts/{promptId}: pause, resume or retag; the text stays. */
export const updatePromptHandler = defineConsoleHandler('updatePrompt', ({ db }) => async ({ team, params, body }) => ({
  prompt: await updatePrompt(db, await findTeamProperty(db, team.teamId, params.id), params.promptId, body),
}));
