import { generateSessionToken, hashSessionToken, isWellFormedSessionToken } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export interface ActiveSession {
  id: string;
  user: SessionUser;
  /** The team the session last selected, if any. */
  teamId: string | null;
  expiresAt: Date;
}

export interface StartedSession {
  token: string;
  expiresAt: Date;
}

/** Starts a session for a user: the token is returned this once, only its hash is kept. */
export async function startSession(
  db: PrismaClient,
  userId: string,
  options: { ttlMs: number; teamId?: string; now?: Date },
): Promise<StartedSession> {
  const now = options.now ?? new Date();
  const { token, hash } = generateSessionToken();
  const expiresAt = new Date(now.getTime() + options.ttlMs);
  await db.$transaction([
    // Expired sessions are pruned as new ones start, so the table holds live ones and a few more.
    db.session.deleteMany({ where: { userId, expiresAt: { lt: now } } }),
    db.session.create({ data: { tokenHash: hash, userId, teamId: options.teamId ?? null, expiresAt } }),
  ]);
  return { token, expiresAt };
}

/** The live session a token names, or null (malformed, unknown, expired or signed out). */
export async function findSession(db: PrismaClient, token: string, now = new Date()): Promise<ActiveSession | null> {
  if (!isWellFormedSessionToken(token)) return null;
  const session = await db.session.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    include: { user: { select: { id: true, email: true, name: true } } },
  });
  if (!session || session.expiresAt <= now) return null;
  return { id: session.id, user: session.user, teamId: session.teamId, expiresAt: session.expiresAt };
}

/** Signs a session out: its token stops working at once. */
export async function endSession(db: PrismaClient, sessionId: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sessionId } });
}

/** Remembers the team a session acts on when a request names none. */
export async function rememberSessionTeam(db: PrismaClient, sessionId: string, teamId: string): Promise<void> {
  await db.session.update({ where: { id: sessionId }, data: { teamId } });
}
