import { OperationError, type TeamRole } from '@vt/contracts/console';
import { Prisma, type PrismaClient } from '@vt/db';
import { beyondCursor, cursorPage, type Page, pageOrder, type SortColumn } from '@vt/read-model';
import { assertOwnerRemains, assertRoleChange } from './roles.ts';

type Tx = Prisma.TransactionClient;

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: TeamRole;
  joinedAt: string;
}

const memberInclude = { user: { select: { id: true, email: true, name: true } } } as const;

function memberView(m: { role: TeamRole; createdAt: Date; user: { id: string; email: string; name: string } }): Member {
  return {
    userId: m.user.id,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    joinedAt: m.createdAt.toISOString(),
  };
}

/**
 * Owners first, then admins, then members; each by name, case ignored; then user id. Sorted by
 * Postgres, so a page read by keyset and the whole list agree.
 */
const ROLE_RANK = "CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END";
const MEMBER_ORDER: SortColumn[] = [
  { column: ROLE_RANK, type: 'int' },
  { column: 'lower(u.name)', type: 'text' },
  { column: 'm.user_id', type: 'uuid' },
];

/** The members of a page, in its order: the keys by keyset, then each member with their user. */
async function readMembers(db: PrismaClient | Tx, teamId: string, page: Page) {
  const read = await db.$queryRaw<{ id: string; rank: number; sort_name: string }[]>(Prisma.sql`
    SELECT m.user_id AS id, ${Prisma.raw(ROLE_RANK)} AS rank, lower(u.name) AS sort_name
    FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.team_id = ${teamId}::uuid AND ${beyondCursor(MEMBER_ORDER, page)}
    ${pageOrder(MEMBER_ORDER, page)}`);
  const { rows, ...cursors } = cursorPage(read, page, (row) => [row.rank, row.sort_name, row.id]);
  const found = await db.membership.findMany({
    where: { teamId, userId: { in: rows.map((row) => row.id) } },
    include: memberInclude,
  });
  const byUser = new Map(found.map((m) => [m.userId, memberView(m)]));
  return { members: rows.flatMap((row) => byUser.get(row.id) ?? []), ...cursors };
}

/** A page of the team's members (GET /api/team/members). */
export const memberPage = (db: PrismaClient, teamId: string, page: Page) => readMembers(db, teamId, page);

/** Every member of the team, in the list's order (the team's own page shows them all). */
export async function listMembers(db: PrismaClient | Tx, teamId: string): Promise<Member[]> {
  // One page as long as any team could be: the largest LIMIT an int4 takes, less the row read ahead.
  return (await readMembers(db, teamId, { limit: 2_147_483_646, offset: 0 })).members;
}

/**
 * Runs a membership change with the team's row locked, so two owners demoting each other at once
 * cannot both pass the last-owner check.
 */
export async function withTeamLocked<T>(db: PrismaClient, teamId: string, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM teams WHERE id = ${teamId}::uuid FOR UPDATE`;
    return change(tx);
  });
}

/**
 * Who is acting, as of now: the role read again under the team's lock when the actor is a person
 * (an owner demoted while their request waited acts as what they are now), or the operator's.
 */
export type Actor = { userId: string; role: TeamRole } | { operator: true; role: TeamRole };

export async function currentRole(tx: Tx, teamId: string, actor: Actor): Promise<TeamRole> {
  if ('operator' in actor) return actor.role;
  const membership = await tx.membership.findUnique({ where: { teamId_userId: { teamId, userId: actor.userId } } });
  if (!membership) throw new OperationError('NOT_FOUND', 'No team with that id.');
  return membership.role;
}

const ownerCount = (tx: Tx, teamId: string) => tx.membership.count({ where: { teamId, role: 'owner' } });

async function membershipOrNotFound(tx: Tx, teamId: string, userId: string) {
  const membership = await tx.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
    include: memberInclude,
  });
  if (!membership) throw new OperationError('NOT_FOUND', 'No member of this team has that user id.');
  return membership;
}

/** Adds a person who has an account, with a role the actor may grant. */
export async function addMember(
  db: PrismaClient,
  input: { teamId: string; actor: Actor; email: string; role: TeamRole },
): Promise<Member> {
  return withTeamLocked(db, input.teamId, async (tx) => {
    assertRoleChange(await currentRole(tx, input.teamId, input.actor), null, input.role);
    const user = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
    if (!user) {
      throw new OperationError(
        'USER_NOT_FOUND',
        `No account has the email ${input.email}: they sign up first, then you add them.`,
      );
    }
    const existing = await tx.membership.findUnique({
      where: { teamId_userId: { teamId: input.teamId, userId: user.id } },
    });
    if (existing)
      throw new OperationError('ALREADY_MEMBER', `${input.email} is already a ${existing.role} of this team.`);
    return memberView(
      await tx.membership.create({
        data: { teamId: input.teamId, userId: user.id, role: input.role },
        include: memberInclude,
      }),
    );
  });
}

/** Changes a member's role (TEAM-4). */
export async function changeRole(
  db: PrismaClient,
  input: { teamId: string; actor: Actor; userId: string; role: TeamRole },
): Promise<Member> {
  return withTeamLocked(db, input.teamId, async (tx) => {
    const actorRole = await currentRole(tx, input.teamId, input.actor);
    const membership = await membershipOrNotFound(tx, input.teamId, input.userId);
    assertRoleChange(actorRole, membership.role, input.role);
    assertOwnerRemains(await ownerCount(tx, input.teamId), membership.role, input.role);
    if (membership.role === input.role) return memberView(membership);
    return memberView(
      await tx.membership.update({ where: { id: membership.id }, data: { role: input.role }, include: memberInclude }),
    );
  });
}

/** Removes a member; their sessions stop acting on the team. */
export async function removeMember(
  db: PrismaClient,
  input: { teamId: string; actor: Actor; userId: string },
): Promise<void> {
  await withTeamLocked(db, input.teamId, async (tx) => {
    const actorRole = await currentRole(tx, input.teamId, input.actor);
    const membership = await membershipOrNotFound(tx, input.teamId, input.userId);
    assertRoleChange(actorRole, membership.role, null);
    assertOwnerRemains(await ownerCount(tx, input.teamId), membership.role, null);
    await leave(tx, input.teamId, input.userId);
  });
}

/** The caller leaves the team; the last owner cannot. */
export async function leaveTeam(db: PrismaClient, input: { teamId: string; userId: string }): Promise<void> {
  await withTeamLocked(db, input.teamId, async (tx) => {
    const membership = await membershipOrNotFound(tx, input.teamId, input.userId);
    assertOwnerRemains(await ownerCount(tx, input.teamId), membership.role, null);
    await leave(tx, input.teamId, input.userId);
  });
}

async function leave(tx: Tx, teamId: string, userId: string) {
  await tx.membership.delete({ where: { teamId_userId: { teamId, userId } } });
  // A session that had selected the team forgets it rather than keep pointing at it.
  await tx.session.updateMany({ where: { userId, teamId }, data: { teamId: null } });
}
