import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { emailSchema, parseOptions, roleSchema, slugSchema } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';

const userCreateInput = z.object({ email: emailSchema, name: z.string().trim().min(1).max(200) });

/** Creates the user, or returns the existing one with that email. */
export async function createUser({ db }: OpsContext, options: unknown) {
  const input = parseOptions(userCreateInput, options);
  const existing = await db.user.findUnique({ where: { email: input.email } });
  const user = existing ?? (await db.user.create({ data: input }));
  return { user: { id: user.id, email: user.email, name: user.name }, created: !existing };
}

const teamCreateInput = z.object({
  name: z.string().trim().min(1).max(200),
  slug: slugSchema,
  ownerEmail: emailSchema,
});

/** Creates a team; its owner is the user with ownerEmail, created if missing. */
export async function createTeam({ db }: OpsContext, options: unknown) {
  const input = parseOptions(teamCreateInput, options);
  return db.$transaction(async (tx) => {
    if (await tx.team.findUnique({ where: { slug: input.slug } })) {
      throw new OpsError('slug_taken', `a team with slug ${input.slug} already exists`);
    }
    const owner = await tx.user.upsert({
      where: { email: input.ownerEmail },
      update: {},
      create: { email: input.ownerEmail, name: input.ownerEmail.split('@')[0] ?? input.ownerEmail },
    });
    const team = await tx.team.create({
      data: { name: input.name, slug: input.slug, memberships: { create: { userId: owner.id, role: 'owner' } } },
    });
    return {
      team: { id: team.id, name: team.name, slug: team.slug },
      owner: { id: owner.id, email: owner.email, name: owner.name },
    };
  });
}

const addMemberInput = z.object({ team: slugSchema, email: emailSchema, role: roleSchema });

/** Adds a user (who must exist) to a team, or changes the role of one already in it. */
export async function addTeamMember({ db }: OpsContext, options: unknown) {
  const input = parseOptions(addMemberInput, options);
  const team = await findTeamBySlug({ db }, input.team);
  const user = await db.user.findUnique({ where: { email: input.email } });
  if (!user) throw new OpsError('user_not_found', `no user with email ${input.email}; create it with: ops user create`);
  const membership = await db.membership.upsert({
    where: { teamId_userId: { teamId: team.id, userId: user.id } },
    update: { role: input.role },
    create: { teamId: team.id, userId: user.id, role: input.role },
  });
  return { team: { id: team.id, slug: team.slug }, user: { id: user.id, email: user.email }, role: membership.role };
}

export async function findTeamBySlug({ db }: Pick<OpsContext, 'db'>, slug: string) {
  const team = await db.team.findUnique({ where: { slug } });
  if (!team) throw new OpsError('team_not_found', `no team with slug ${slug}`);
  return team;
}
