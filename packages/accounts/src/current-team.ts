import { isUuid } from '@vt/contracts';
import { OperationError, type TeamRole } from '@vt/contracts/console';
import type { PrismaClient } from '@vt/db';
import { roleIn } from './teams.ts';

/** The team a request acts on, and who acts in it with which role (an Actor for member operations). */
export interface CurrentTeam {
  teamId: string;
  userId: string;
  role: TeamRole;
}

const notFound = () => new OperationError('NOT_FOUND', 'No team with that id.');

/**
 * The team a request acts on: the `X-Team-Id` header when present, else the team the session
 * selected, else the person's only team. A team they are not a member of is not found, whichever
 * way it was named; several teams with none selected asks them to choose.
 */
export async function resolveCurrentTeam(
  db: PrismaClient,
  input: { userId: string; headerTeamId?: string; sessionTeamId: string | null },
): Promise<CurrentTeam> {
  if (input.headerTeamId !== undefined) {
    const role = isUuid(input.headerTeamId) ? await roleIn(db, input.headerTeamId, input.userId) : null;
    if (!role) throw notFound();
    return { teamId: input.headerTeamId.toLowerCase(), userId: input.userId, role };
  }
  if (input.sessionTeamId) {
    const role = await roleIn(db, input.sessionTeamId, input.userId);
    if (role) return { teamId: input.sessionTeamId, userId: input.userId, role };
  }
  const memberships = await db.membership.findMany({
    where: { userId: input.userId },
    select: { teamId: true, role: true },
    take: 2,
  });
  const only = memberships.length === 1 ? memberships[0] : undefined;
  if (only) return { teamId: only.teamId, userId: input.userId, role: only.role };
  throw new OperationError(
    'TEAM_NOT_SELECTED',
    memberships.length
      ? 'You belong to several teams: send X-Team-Id or select one with PUT /api/session/team.'
      : 'You belong to no team yet: create one with POST /api/teams or ask an owner to add you.',
  );
}
