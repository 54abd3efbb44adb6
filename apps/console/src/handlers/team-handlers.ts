import {
  addMember,
  changeRole,
  checkSlug,
  createTeam,
  leaveTeam,
  listMembers,
  rememberSessionTeam,
  removeMember,
  teamDetail,
  updateTeam,
} from '@vt/accounts';
import type { ConsoleHandlers } from '../http/console-operation.ts';
import type { HandlerDeps } from './handler-deps.ts';

/** The spec's team endpoints (TEAM-1..4) and the members around them. */
export function teamHandlers({ db }: HandlerDeps) {
  return {
    createTeam: async ({ session, body }) => {
      const team = await createTeam(db, { name: body.name, slug: body.slug, ownerId: session.user.id });
      // The creator goes on working in the team they just made.
      await rememberSessionTeam(db, session.id, team.id);
      return teamDetail(db, team.id, 'owner');
    },
    checkSlug: async ({ query }) => checkSlug(db, query.slug),
    getTeam: async ({ team }) => teamDetail(db, team.teamId, team.role),
    updateTeam: async ({ team, body }) => {
      await updateTeam(db, team.teamId, body);
      return teamDetail(db, team.teamId, team.role);
    },
    changeRole: async ({ team, body }) => ({
      member: await changeRole(db, { teamId: team.teamId, actor: team, userId: body.userId, role: body.role }),
    }),
    listMembers: async ({ team }) => ({ members: await listMembers(db, team.teamId) }),
    addMember: async ({ team, body }) => ({
      member: await addMember(db, { teamId: team.teamId, actor: team, email: body.email, role: body.role }),
    }),
    removeMember: async ({ team, params }) => {
      await removeMember(db, { teamId: team.teamId, actor: team, userId: params.userId });
      return undefined;
    },
    leaveTeam: async ({ team, session }) => {
      await leaveTeam(db, { teamId: team.teamId, userId: session.user.id });
      return undefined;
    },
  } satisfies Partial<ConsoleHandlers>;
}
