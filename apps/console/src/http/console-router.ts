import { type ActiveSession, assertCanManage, type CurrentTeam, findSession, resolveCurrentTeam } from '@vt/accounts';
import { isUuid } from '@vt/contracts';
import {
  type ConsoleEndpoint,
  type ConsoleEndpointId,
  consoleEndpoints,
  fieldProblems,
  OperationError,
  pathParameters,
} from '@vt/contracts/console';
import type { PrismaClient } from '@vt/db';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { z } from 'zod';
import { isCrossSiteWrite } from '../auth/csrf.ts';
import { sessionCookieOf } from '../auth/session-cookie.ts';
import { sendConsoleError } from './console-error.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler gets: the request, already authenticated, scoped to its team and validated. */
export interface HandlerContext<E extends ConsoleEndpoint> {
  req: Request;
  res: Response;
  params: Record<string, string>;
  body: E extends { body: infer B } ? Parsed<B> : undefined;
  query: E extends { query: infer Q } ? Parsed<Q> : undefined;
  session: E['access'] extends 'public' ? undefined : ActiveSession;
  team: E['access'] extends 'member' | 'admin' ? CurrentTeam : undefined;
}

type Answer<E extends ConsoleEndpoint> = E extends { response: infer R extends z.ZodType } ? z.input<R> : undefined;

export type Handler<E extends ConsoleEndpoint> = (ctx: HandlerContext<E>) => Promise<Answer<E>>;

/** One handler per catalogued operation: the type makes a missing one a compile error. */
export type ConsoleHandlers = { [K in ConsoleEndpointId]: Handler<(typeof consoleEndpoints)[K]> };

export interface ConsoleRouterDeps {
  db: PrismaClient;
  handlers: ConsoleHandlers;
  /** The console's public origin: cookie-authenticated writes must come from it (or the same host). */
  publicOrigin: string;
  registry: Registry;
  now: () => Date;
}

/** Stands in for a path id that is not a UUID: it names no row (ids are random v4 UUIDs). */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const BEARER = /^bearer ([^\s]+)$/i;

/** `/api/properties/{id}` → `/api/properties/:id`. */
const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

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
 * writes, the session, the current team and the caller's role, the query, the body; then the
 * handler, whose answer is parsed by the catalogued schema (so nothing the schema does not name,
 * such as a password hash, can leave). A path id that is not a UUID names nothing: the operation
 * is asked for the nil UUID instead, so it answers 404 exactly as for a made-up id or one of
 * another team (same message, same place in the order of checks), never a hint of which it was.
 */
export function createConsoleRouter(deps: ConsoleRouterDeps): Router {
  const router = Router({ strict: false });
  const metrics = consoleMetrics(deps.registry);
  const byPath = new Map<string, ConsoleEndpoint[]>();
  for (const endpoint of Object.values(consoleEndpoints) as ConsoleEndpoint[]) {
    byPath.set(endpoint.path, [...(byPath.get(endpoint.path) ?? []), endpoint]);
  }

  const serve = (id: ConsoleEndpointId, endpoint: ConsoleEndpoint) => {
    const handler = deps.handlers[id] as unknown as (ctx: HandlerContext<ConsoleEndpoint>) => Promise<unknown>;
    return async (req: Request, res: Response, next: NextFunction) => {
      const stopTimer = metrics.duration.startTimer({ operation: endpoint.operationId });
      res.on('finish', () => {
        stopTimer({ status: String(res.statusCode) });
        metrics.requests.inc({ operation: endpoint.operationId, status: String(res.statusCode) });
      });
      try {
        const cookieToken = sessionCookieOf(req);
        if (isCrossSiteWrite(req, deps.publicOrigin, cookieToken !== undefined)) {
          return sendConsoleError(
            res,
            'CSRF_REJECTED',
            'This write did not come from the console’s own origin (Origin or Referer). Scripts send `Authorization: Bearer <token>` instead of the cookie.',
          );
        }
        let session: ActiveSession | undefined;
        if (endpoint.access !== 'public') {
          const found = await authenticate(deps.db, req, cookieToken, deps.now());
          if (typeof found === 'string') return sendConsoleError(res, 'UNAUTHENTICATED', found);
          session = found;
        }
        let team: CurrentTeam | undefined;
        if (session && (endpoint.access === 'member' || endpoint.access === 'admin')) {
          team = await resolveCurrentTeam(deps.db, {
            userId: session.user.id,
            headerTeamId: req.get('x-team-id'),
            sessionTeamId: session.teamId,
          });
          if (endpoint.access === 'admin') assertCanManage(team.role);
        }
        const params: Record<string, string> = {};
        for (const name of pathParameters(endpoint.path)) {
          const value = req.params[name];
          params[name] = typeof value === 'string' && isUuid(value) ? value.toLowerCase() : NIL_UUID;
        }
        let query: unknown;
        if (endpoint.query) {
          const parsed = endpoint.query.safeParse(req.query);
          if (!parsed.success) {
            const details = fieldProblems(parsed.error);
            return sendConsoleError(res, 'INVALID_PARAM', `Invalid query parameter '${details[0]?.path}'.`, details);
          }
          query = parsed.data;
        }
        let body: unknown;
        if (endpoint.body) {
          if (!req.is('application/json')) {
            return sendConsoleError(
              res,
              'UNSUPPORTED_MEDIA_TYPE',
              'Send the body as JSON with `Content-Type: application/json`.',
            );
          }
          const parsed = endpoint.body.safeParse(req.body);
          if (!parsed.success) {
            return sendConsoleError(
              res,
              'INVALID_BODY',
              'The body is not valid; details names each field.',
              fieldProblems(parsed.error),
            );
          }
          body = parsed.data;
        }
        const answer = await handler({
          req,
          res,
          params,
          body,
          query,
          session,
          team,
        } as HandlerContext<ConsoleEndpoint>);
        if (endpoint.status === 204 || !endpoint.response) return void res.status(endpoint.status).end();
        res.status(endpoint.status).json(endpoint.response.parse(answer));
      } catch (err) {
        if (err instanceof OperationError) return sendConsoleError(res, err.code, err.message, err.details);
        next(err);
      }
    };
  };

  for (const [path, endpoints] of byPath) {
    const route = router.route(expressPath(path));
    const methods = endpoints.map((e) => e.method.toUpperCase());
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    for (const endpoint of endpoints) {
      const id = endpoint.operationId as ConsoleEndpointId;
      route[endpoint.method](serve(id, endpoint));
    }
    route.options((_req, res) => {
      res.set('Allow', allow).status(204).end();
    });
    route.all((req, res) => {
      res.set('Allow', allow);
      sendConsoleError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow}.`);
    });
  }
  return router;
}

function consoleMetrics(registry: Registry) {
  return {
    requests: new Counter({
      name: 'vt_console_requests_total',
      help: 'Console API requests by operation and answer status.',
      labelNames: ['operation', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'vt_console_request_duration_seconds',
      help: 'Console API request duration by operation and answer status.',
      labelNames: ['operation', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}
