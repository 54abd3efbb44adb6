import { createHash } from 'node:crypto';
import { OperationError } from '@vt/contracts/console';
import { isUniqueViolation, type Prisma, type PrismaClient } from '@vt/db';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { SessionUser } from './sessions.ts';

const publicUser = (user: SessionUser): SessionUser => ({ id: user.id, email: user.email, name: user.name });

/**
 * A new account. Any existing user with that email refuses it, one without a password included:
 * the service sends no email, so nobody can prove an address, and claiming an account an
 * operator or a teammate set up would hand over its teams. Such users get a password from
 * `ops user create --password`.
 */
export async function signUp(
  db: PrismaClient,
  input: { email: string; password: string; name: string },
): Promise<SessionUser> {
  const taken = () => new OperationError('EMAIL_TAKEN', 'An account with this email exists; sign in instead.');
  if (await db.user.findUnique({ where: { email: input.email }, select: { id: true } })) throw taken();
  const passwordHash = await hashPassword(input.password);
  try {
    return publicUser(await db.user.create({ data: { email: input.email, name: input.name, passwordHash } }));
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/** The user whose email and password these are, or null: one answer for an unknown email and a wrong password. */
export async function checkCredentials(
  db: PrismaClient,
  input: { email: string; password: string },
): Promise<SessionUser | null> {
  const user = await db.user.findUnique({ where: { email: input.email } });
  const valid = await verifyPassword(user?.passwordHash, input.password);
  return user && valid ? publicUser(user) : null;
}

/**
 * The operator's way to make or fix an account: creates the user, or finds the one with that
 * email; with a password, sets it (the operator's password reset).
 */
export async function upsertUser(
  // A transaction's client too: `ops team create` makes the owner and the team in one.
  db: PrismaClient | Prisma.TransactionClient,
  input: { email: string; name: string; password?: string },
): Promise<{ user: SessionUser; created: boolean; passwordSet: boolean }> {
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  const existing = await db.user.findUnique({ where: { email: input.email } });
  if (existing) {
    if (passwordHash) await db.user.update({ where: { id: existing.id }, data: { passwordHash } });
    return { user: publicUser(existing), created: false, passwordSet: Boolean(passwordHash) };
  }
  const user = await db.user.create({ data: { email: input.email, name: input.name, passwordHash } });
  return { user: publicUser(user), created: true, passwordSet: Boolean(passwordHash) };
}

/**
 * A fingerprint of the email's current password ('' for an unknown email or one without a
 * password): it changes whenever the password is set (each hash has its own salt), so a limit
 * counted against it ends when an operator resets the password. Never the hash itself.
 */
export async function passwordVersionOf(db: PrismaClient, email: string): Promise<string> {
  const user = await db.user.findUnique({ where: { email }, select: { passwordHash: true } });
  return user?.passwordHash ? createHash('sha256').update(user.passwordHash).digest('base64url').slice(0, 16) : '';
}
