import { addMember, changeRole, createTeam as createTeamFor, upsertUser } from '@vt/accounts';
import { OperationError } from '@vt/contracts/console';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { displayNameSchema, emailSchema, parseOptions, passwordSchema, roleSchema, slugSchema } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';

const userCreateInput = z.object({ email: emailSchema, name: displayNameSchema, password: passwordSchema.optional() });

/**
 * Creates the user, or returns the existing one with that email. With --password the password is
 * set either way (the operator's password reset), and the user can sign in to the console.
 */
export async function createUser({ db }: OpsContext, options: unknown) {
  const input = parseOptions(userCreateInput, options);
  return upsertUser(db, input);
}

const teamCreateInput = z.object({ name: displayNameSchema, slug: slugSchema, ownerEmail: emailSchema });

/**
 * Creates a team; its owner is the user with ownerEmail, created (without a password) if missing.
 * One transaction: a taken slug refuses the command without leaving a new owner behind.
 */
export async function createTeam({ db }: OpsContext, options: unknown) {
  const input = parseOptions(teamCreateInput, options);
  return db.$transaction(async (tx) => {
    const { user: owner } = await upsertUser(tx, {
      email: input.ownerEmail,
      name: input.ownerEmail.split('@')[0] ?? input.ownerEmail,
    });
    const team = await createTeamFor(tx, { name: input.name, slug: input.slug, ownerId: owner.id });
    return { team: { id: team.id, name: team.name, slug: team.slug }, owner };
  });
}

/** The operator acts with an owner's rights. */
const OPERATOR = { operator: true, role: 'owner' } as const;

const addMemberInput = z.object({ team: slugSchema, email: emailSchema, role: roleSchema });

/**
 * Adds a user (who must exist) to a team, or changes the role of one already in it. The operator
 * acts with an owner's rights, so the last-owner rule holds here too.
 */
export async function addTeamMember({ db }: OpsContext, options: unknown) {
  const input = parseOptions(addMemberInput, options);
  const team = await findTeamBySlug({ db }, input.team);
  let member: Awaited<ReturnType<typeof addMember>>;
  try {
    member = await addMember(db, { teamId: team.id, actor: OPERATOR, email: input.email, role: input.role });
  } catch (err) {
    if (!(err instanceof OperationError && err.code === 'ALREADY_MEMBER')) throw err;
    const user = await db.user.findUniqueOrThrow({ where: { email: input.email } });
    member = await changeRole(db, { teamId: team.id, actor: OPERATOR, userId: user.id, role: input.role });
  }
  return {
    team: { id: team.id, slug: team.slug },
    user: { id: member.userId, email: member.email },
    role: member.role,
  };
}

export async function findTeamBySlug({ db }: Pick<OpsContext, 'db'>, slug: string) {
  const team = await db.team.findUnique({ where: { slug } });
  if (!team) throw new OpsError('team_not_found', `no team with slug ${slug}`);
  return team;
}
