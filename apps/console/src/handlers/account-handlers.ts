import {
  type ActiveSession,
  checkCredentials,
  endSession,
  rememberSessionTeam,
  roleIn,
  signUp,
  startSession,
  teamsOf,
} from '@vt/accounts';
import { OperationError } from '@vt/contracts/console';
import type { Request, Response } from 'express';
import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.ts';
import type { ConsoleHandlers } from '../http/console-operation.ts';
import type { HandlerDeps } from './handler-deps.ts';

/** Sign-up, sign-in, sign-out, who am I, and which team this session acts on. */
export function accountHandlers(deps: HandlerDeps) {
  const { db } = deps;

  async function signedIn(req: Request, res: Response, user: { id: string; email: string; name: string }) {
    const session = await startSession(db, user.id, { ttlMs: deps.sessionTtlMs, now: deps.now() });
    setSessionCookie(req, res, session.token, session.expiresAt);
    return { user, token: session.token, expiresAt: session.expiresAt.toISOString() };
  }

  async function me(session: ActiveSession) {
    const teams = await teamsOf(db, session.user.id);
    const selected = teams.find((t) => t.id === session.teamId);
    return {
      user: session.user,
      teams,
      currentTeamId: selected?.id ?? (teams.length === 1 ? (teams[0]?.id ?? null) : null),
      sessionExpiresAt: session.expiresAt.toISOString(),
    };
  }

  return {
    signUp: async ({ req, res, body }) => signedIn(req, res, await signUp(db, body)),

    signIn: async ({ req, res, body }) => {
      const client = req.ip ?? 'unknown';
      const wait = await deps.signInLimiter.blockedFor(body.email, client);
      if (wait > 0) {
        res.set('Retry-After', String(wait));
        throw new OperationError('RATE_LIMIT_EXCEEDED', `Too many failed sign-ins; try again in ${wait} s.`);
      }
      const user = await checkCredentials(db, body);
      if (!user) {
        await deps.signInLimiter.recordFailure(body.email, client);
        throw new OperationError('INVALID_CREDENTIALS', 'The email or the password is wrong.');
      }
      await deps.signInLimiter.recordSuccess(body.email);
      return signedIn(req, res, user);
    },

    signOut: async ({ req, res, session }) => {
      await endSession(db, session.id);
      clearSessionCookie(req, res);
      return undefined;
    },

    getMe: async ({ session }) => me(session),

    selectTeam: async ({ session, body }) => {
      if (!(await roleIn(db, body.teamId, session.user.id))) {
        throw new OperationError('NOT_FOUND', 'No team with that id.');
      }
      await rememberSessionTeam(db, session.id, body.teamId);
      return me({ ...session, teamId: body.teamId });
    },
  } satisfies Partial<ConsoleHandlers>;
}
