import { type ActiveSession, startSession, teamsOf } from '@vt/accounts';
import type { PrismaClient } from '@vt/db';
import type { Request, Response } from 'express';
import { setSessionCookie } from '../../auth/session-cookie.ts';
import type { HandlerDeps } from '../handler-deps.ts';

/** A new session for the person, as its cookie and as the answer sign-up and sign-in give. */
export async function signedIn(
  { db, sessionTtlMs, now }: HandlerDeps,
  req: Request,
  res: Response,
  user: { id: string; email: string; name: string },
) {
  const session = await startSession(db, user.id, { ttlMs: sessionTtlMs, now: now() });
  setSessionCookie(req, res, session.token, session.expiresAt);
  return { user, token: session.token, expiresAt: session.expiresAt.toISOString() };
}

/** The person, their teams and the current one: a session with one team and none selected acts on that one. */
export async function meOf(db: PrismaClient, session: ActiveSession) {
  const teams = await teamsOf(db, session.user.id);
  const selected = teams.find((t) => t.id === session.teamId);
  return {
    user: session.user,
    teams,
    currentTeamId: selected?.id ?? (teams.length === 1 ? (teams[0]?.id ?? null) : null),
    sessionExpiresAt: session.expiresAt.toISOString(),
  };
}
