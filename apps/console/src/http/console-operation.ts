import type { ActiveSession, CurrentTeam } from '@vt/accounts';
import { isUuid } from '@vt/contracts';
import { type ConsoleAccess, type ConsoleEndpoint, pathParameters, takesIdempotencyKey } from '@vt/contracts/console';
import { type Operation, type PathParameterName, type StreamedAnswer, setPageLinks } from '@vt/http-operations';
import type { Request, Response } from 'express';
import type { z } from 'zod';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Who is asking, as the router found them: the session and current team where the access needs them. */
export interface ConsoleContext {
  req: Request;
  res: Response;
  session: ActiveSession | undefined;
  team: CurrentTeam | undefined;
}

/** What a handler gets: the request, already authenticated, scoped to its team and validated. */
export interface HandlerContext<E extends ConsoleEndpoint> {
  req: Request;
  res: Response;
  /** The path's `{name}` parameters, each a lower-case UUID (the nil UUID for one that is not: it names nothing). */
  params: Record<PathParameterName<E['path']>, string>;
  body: Parsed<E['body']>;
  query: Parsed<E['query']>;
  session: E['access'] extends 'public' ? undefined : ActiveSession;
  team: E['access'] extends 'member' | 'admin' ? CurrentTeam : undefined;
}

/** What a handler answers: its response schema's input, a body written as it is produced, or nothing (204). */
type Answer<E extends ConsoleEndpoint> = E extends { streams: string }
  ? StreamedAnswer
  : E extends { response: infer R extends z.ZodType }
    ? z.input<R>
    : undefined;

export type Handler<E extends ConsoleEndpoint> = (ctx: HandlerContext<E>) => Promise<Answer<E>>;

/** What the router needs of a console operation beyond its schemas. */
export interface ConsoleOperationMeta {
  access: ConsoleAccess;
  /** Whether it takes an Idempotency-Key (every POST of a signed-in person). */
  idempotent: boolean;
  /** The answer's field holding a secret shown once, never kept for a replay. */
  shownOnceField?: string;
}

export type ConsoleOperation = Operation<ConsoleContext, ConsoleOperationMeta>;

/** Stands in for a path id that is not a UUID: it names no row (ids are random v4 UUIDs). */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The path's ids as handlers get them: each a UUID in lower case, or the nil UUID for anything
 * else, so the operation answers 404 exactly as for a made-up id or one of another team (same
 * message, same place in the order of checks), never a hint of which it was.
 */
function pathIds(names: readonly string[], raw: Request['params']): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of names) {
    const value = raw[name];
    params[name] = typeof value === 'string' && isUuid(value) ? value.toLowerCase() : NIL_UUID;
  }
  return params;
}

/** A list page's answer: it names the pages beside it, so the Link header can too. */
function isCursorPage(answer: unknown): answer is { next_cursor: string | null; prev_cursor: string | null } {
  return typeof answer === 'object' && answer !== null && 'next_cursor' in answer && 'prev_cursor' in answer;
}

type ErasedHandler = (
  input: ConsoleContext & { params: Record<string, string>; query: unknown; body: unknown },
) => Promise<unknown>;

/**
 * A catalogued endpoint with its handler, as the router serves it. The handler's params, query,
 * body, session and team are typed from the endpoint; one that does not fit does not compile.
 */
export function consoleOperation<E extends ConsoleEndpoint>(endpoint: E, handle: Handler<E>): ConsoleOperation;
export function consoleOperation(endpoint: ConsoleEndpoint, handle: ErasedHandler): ConsoleOperation {
  const names = pathParameters(endpoint.path);
  return {
    operationId: endpoint.operationId,
    method: endpoint.method,
    path: endpoint.path,
    status: endpoint.status,
    meta: {
      access: endpoint.access,
      idempotent: takesIdempotencyKey(endpoint),
      ...(endpoint.shownOnceField ? { shownOnceField: endpoint.shownOnceField } : {}),
    },
    query: endpoint.query,
    body: endpoint.body,
    response: endpoint.response,
    streams: endpoint.streams,
    // Path ids never fail: one that is not a UUID is read as the nil UUID, which names nothing.
    handle: async (input) => {
      const answer = await handle({ ...input, params: pathIds(names, input.req.params) });
      if (isCursorPage(answer))
        setPageLinks(input.req, input.res, { next: answer.next_cursor, prev: answer.prev_cursor });
      return answer;
    },
  };
}
