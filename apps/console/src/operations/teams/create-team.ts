import { createTeam, rememberSessionTeam, teamDetail } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/teams: the creator becomes the owner. */
export const createTeamHandler = defineConsoleHandler('createTeam', ({ db }) => async ({ session, body }) => {
  const team = await createTeam(db, { name: body.name, slug: body.slug, ownerId: session.user.id });
  // The creator goes on working in the team they just made.
  await rememberSessionTeam(db, session.id, team.id);
  return teamDetail(db, team.id, 'owner');
});
