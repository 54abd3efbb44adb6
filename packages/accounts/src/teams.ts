import {
  OperationError,
  type SlugUnavailableReason,
  slugProblem,
  slugProblemMessage,
  type TeamRole,
  teamBrandingSchema,
  teamSettingsSchema,
} from '@vt/contracts/console';
import { isUniqueViolation, type Prisma, type PrismaClient, type Team } from '@vt/db';
import { listMembers } from './members.ts';

const slugTaken = (slug: string) =>
  new OperationError('SLUG_TAKEN', `The slug ${slug} is taken by another team; check one with /api/teams/check-slug.`);

/** A team as the console shows it; settings and branding read leniently (stored by older versions). */
export function teamView(team: Team) {
  return {
    id: team.id,
    name: team.name,
    slug: team.slug,
    ...leniently(team),
    createdAt: team.createdAt.toISOString(),
  };
}

/** A team's settings and branding, each as stored when it still reads, else empty. */
function leniently(team: Pick<Team, 'settings' | 'branding'>) {
  const settings = teamSettingsSchema.safeParse(team.settings);
  const branding = teamBrandingSchema.safeParse(team.branding);
  return { settings: settings.success ? settings.data : {}, branding: branding.success ? branding.data : {} };
}

/** Creates a team whose owner is `ownerId` (TEAM-1). */
export async function createTeam(
  db: PrismaClient | Prisma.TransactionClient,
  input: { name: string; slug: string; ownerId: string },
) {
  try {
    return await db.team.create({
      data: { name: input.name, slug: input.slug, memberships: { create: { userId: input.ownerId, role: 'owner' } } },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(input.slug);
    throw err;
  }
}

/** Whether a slug can be used (TEAM-3), with the first reason it cannot. */
export async function checkSlug(
  db: PrismaClient,
  slug: string,
): Promise<{ slug: string; available: boolean; reason?: SlugUnavailableReason; message?: string }> {
  const problem: SlugUnavailableReason | null =
    slugProblem(slug) ?? ((await db.team.findUnique({ where: { slug }, select: { id: true } })) ? 'taken' : null);
  return problem
    ? { slug, available: false, reason: problem, message: `This slug ${slugProblemMessage(problem)}.` }
    : { slug, available: true };
}

/** The current team as GET /api/team answers it (TEAM-2). */
export async function teamDetail(db: PrismaClient, teamId: string, role: TeamRole) {
  const [team, members] = await Promise.all([
    db.team.findUniqueOrThrow({ where: { id: teamId } }),
    listMembers(db, teamId),
  ]);
  return { team: teamView(team), role, members };
}

/** Changes what is given (TEAM-2); settings and branding are replaced whole. */
export async function updateTeam(
  db: PrismaClient,
  teamId: string,
  patch: { name?: string; slug?: string; settings?: object; branding?: object },
): Promise<Team> {
  try {
    return await db.team.update({ where: { id: teamId }, data: patch });
  } catch (err) {
    if (isUniqueViolation(err) && patch.slug) throw slugTaken(patch.slug);
    throw err;
  }
}

/** A person's teams with their role in each, by name. */
export async function teamsOf(db: PrismaClient, userId: string) {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { team: { select: { id: true, name: true, slug: true, settings: true, branding: true } } },
    orderBy: [{ team: { name: 'asc' } }, { teamId: 'asc' }],
  });
  // Settings and branding too: every page shows the team's logo and its times in the team's zone.
  return memberships.map((m) => ({
    id: m.team.id,
    name: m.team.name,
    slug: m.team.slug,
    role: m.role,
    ...leniently(m.team),
  }));
}

/** The role `userId` holds in `teamId`, or null when not a member. */
export async function roleIn(db: PrismaClient, teamId: string, userId: string): Promise<TeamRole | null> {
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
    select: { role: true },
  });
  return membership?.role ?? null;
}
