import { type ActiveSession, assertCanManage, type CurrentTeam, findSession, resolveCurrentTeam } from '@vt/accounts';
import { type ConsoleErrorCode, fieldProblems, OperationError } from '@vt/contracts/console';
import type { PrismaClient } from '@vt/db';
import { createOperationRouter } from '@vt/http-operations';
import type { Logger } from '@vt/logger';
import type { Request, Router } from 'express';
import type { Registry } from 'prom-client';
import { isCrossSiteWrite } from '../auth/csrf.ts';
import { sessionCookieOf } from '../auth/session-cookie.ts';
import { idempotentOperation } from '../idempotency/idempotent-operation.ts';
import { sendConsoleError } from './console-error.ts';
import type { ConsoleContext, ConsoleOperation, ConsoleOperationMeta } from './console-operation.ts';

export interface ConsoleRouterDeps {
  db: PrismaClient;
  /** Every catalogued operation with its handler (`consoleOperations` in operations/index.ts). */
  operations: readonly ConsoleOperation[];
  /** The console's public origin: cookie-authenticated writes must come from it (or the same host). */
  publicOrigin: string;
  registry: Registry;
  now: () => Date;
  logger: Logger;
}

const BEARER = /^bearer ([^\s]+)$/i;

/** The session a request carries: the bearer token when there is an Authorization header, else the cookie. */
async function authenticate(db: PrismaClient, req: Request, cookieToken: string | undefined, now: Date) {
  const authorization = req.headers.authorization;
  const token = authorization !== undefined ? BEARER.exec(authorization)?.[1] : cookieToken;
  if (token === undefined) {
    return authorization !== undefined
      ? 'The Authorization header must be `Bearer <session token>`.'
      : 'Sign in first: send the session cookie, or `Authorization: Bearer <session token>` from POST /api/auth/sign-in.';
  }
  return (await findSession(db, token, now)) ?? 'The session is unknown, expired or signed out: sign in again.';
}

/**
 * Every console route, from the endpoint catalogue. Per request, in order: the CSRF check on
 * writes, the session, the current team and the caller's role, the path ids, the query, the
 * body; then the handler, whose answer is parsed by the catalogued schema (so nothing the schema
 * does not name, such as a password hash, can leave).
 */
export function createConsoleRouter(deps: ConsoleRouterDeps): Router {
  /** Who is asking, refused before any input is read. */
  const context = async (req: Request, operation: ConsoleOperation): Promise<Omit<ConsoleContext, 'res'>> => {
    const { access } = operation.meta;
    const cookieToken = sessionCookieOf(req);
    if (isCrossSiteWrite(req, deps.publicOrigin, cookieToken !== undefined)) {
      throw new OperationError(
        'CSRF_REJECTED',
        'This write did not come from the console’s own origin (Origin or Referer). Scripts send `Authorization: Bearer <token>` instead of the cookie.',
      );
    }
    let session: ActiveSession | undefined;
    if (access !== 'public') {
      const found = await authenticate(deps.db, req, cookieToken, deps.now());
      if (typeof found === 'string') throw new OperationError('UNAUTHENTICATED', found);
      session = found;
    }
    let team: CurrentTeam | undefined;
    if (session && (access === 'member' || access === 'admin')) {
      team = await resolveCurrentTeam(deps.db, {
        userId: session.user.id,
        headerTeamId: req.get('x-team-id'),
        sessionTeamId: session.teamId,
      });
      if (access === 'admin') assertCanManage(team.role);
    }
    return { req, session, team };
  };

  return createOperationRouter<ConsoleContext, ConsoleOperationMeta, ConsoleErrorCode>({
    // Every POST of a signed-in person takes an Idempotency-Key, whatever its handler.
    operations: deps.operations.map((operation) => idempotentOperation(operation, deps)),
    metrics: { registry: deps.registry, prefix: 'vt_console', subject: 'Console API' },
    sendError: sendConsoleError,
    refusal: OperationError,
    context: async (req, res, operation) => ({ ...(await context(req, operation)), res }),
    invalidInput: (part, error) => {
      const details = fieldProblems(error);
      return part === 'body'
        ? new OperationError('INVALID_BODY', 'The body is not valid; details names each field.', details)
        : new OperationError('INVALID_PARAM', `Invalid query parameter '${details[0]?.path}'.`, details);
    },
    bodyNotJson: () =>
      new OperationError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with `Content-Type: application/json`.'),
    methodNotAllowed: (method, allow) =>
      new OperationError('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allow}.`),
  });
}
