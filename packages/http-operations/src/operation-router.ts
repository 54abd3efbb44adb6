import { type NextFunction, type Request, type Response, Router } from 'express';
import type { Registry } from 'prom-client';
import type { z } from 'zod';
import type { ErrorSender } from './error-envelope.ts';
import type { Operation } from './operation.ts';
import { type OperationMetricNames, operationMetrics } from './operation-metrics.ts';
import { RecordedAnswer } from './recorded-answer.ts';
import type { Refusal } from './refusal.ts';
import { sendStreamedAnswer } from './streamed-answer.ts';

export type InputPart = 'params' | 'query' | 'body';

export interface OperationRouterOptions<Ctx, Meta, Code extends string> {
  operations: readonly Operation<Ctx, Meta>[];
  /** Where the router is mounted (`/v1`): left off each operation's path. */
  mountedAt?: string;
  /** Where requests are counted and timed, by operation and status, under the family's names. */
  metrics: OperationMetricNames & { registry: Registry };
  sendError: ErrorSender<Code>;
  /** The family's own refusal class: what else is thrown goes on to the app's error handler. */
  refusal: abstract new (
    ...args: never[]
  ) => Refusal<Code>;
  /** Who is asking, checked before any input is read: throws a refusal to turn the request away. */
  context: (req: Request, res: Response, operation: Operation<Ctx, Meta>) => Promise<Ctx>;
  /** The refusal of an input part that fails its schema. */
  invalidInput: (part: InputPart, error: z.ZodError) => Refusal<Code>;
  /** The refusal of a body that is not sent as JSON, for operations that take one. */
  bodyNotJson?: () => Refusal<Code>;
  /** The refusal of a method the path does not answer; `allow` is the Allow header's value. */
  methodNotAllowed: (method: string, allow: string) => Refusal<Code>;
  /** Writes a JSON success; by default the answer parsed by the response schema, with the operation's status. */
  respond?: (res: Response, operation: Operation<Ctx, Meta>, answer: unknown) => void;
}

/** `/v1/responses/{id}` mounted at `/v1` → `/responses/:id`. */
const expressPath = (path: string, mountedAt: string) =>
  path.slice(path.startsWith(mountedAt) ? mountedAt.length : 0).replace(/\{(\w+)\}/g, ':$1');

function respondWithSchema<Ctx, Meta>(res: Response, operation: Operation<Ctx, Meta>, answer: unknown): void {
  const status = operation.status ?? 200;
  // Parsed on the way out too, so nothing the schema does not name (a password hash) can leave.
  if (status === 204 || !operation.response) return void res.status(status).end();
  res.status(status).json(operation.response.parse(answer));
}

/**
 * One router for a family's operations. Per path: each operation's method (GET also answers
 * HEAD), OPTIONS with 204 and Allow, and 405 with Allow for any other method. Per request, in
 * order: the family's context (authentication and the like), then params, query and body
 * against their schemas, then the handler and the answer (streamed as it is produced for an
 * operation that `streams`); each step may refuse, in the family's envelope. Every request is
 * counted and timed by operation and status.
 */
export function createOperationRouter<Ctx, Meta, Code extends string>(
  options: OperationRouterOptions<Ctx, Meta, Code>,
): Router {
  const router = Router({ strict: false });
  const respond = options.respond ?? respondWithSchema;
  const timer = operationMetrics(options.metrics.registry, options.metrics);
  const byPath = new Map<string, Operation<Ctx, Meta>[]>();
  for (const operation of options.operations) {
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  }

  const parse = (part: InputPart, schema: z.ZodType | undefined, raw: unknown): unknown => {
    if (!schema) return undefined;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw options.invalidInput(part, parsed.error);
    return parsed.data;
  };

  const serve = (operation: Operation<Ctx, Meta>) => async (req: Request, res: Response, next: NextFunction) => {
    const record = timer(operation.operationId);
    res.on('finish', () => record(res.statusCode));
    try {
      const context = await options.context(req, res, operation);
      const params = parse('params', operation.params, req.params);
      const query = parse('query', operation.query, req.query);
      if (operation.body && options.bodyNotJson && !req.is('application/json')) throw options.bodyNotJson();
      const body = parse('body', operation.body, req.body);
      const answer = await operation.handle({ ...context, params, query, body });
      if (answer instanceof RecordedAnswer) answer.send(res);
      else if (operation.streams)
        await sendStreamedAnswer(req, res, operation.status ?? 200, operation.streams, answer);
      else respond(res, operation, answer);
    } catch (err) {
      // Once an answer has begun, a refusal can no longer be sent: the app's handler logs it.
      if (res.headersSent || !(err instanceof options.refusal)) return next(err);
      options.sendError(res, err.code, err.message, err.details);
    }
  };

  for (const [path, operations] of byPath) {
    const route = router.route(expressPath(path, options.mountedAt ?? ''));
    const methods = operations.map((operation) => operation.method.toUpperCase());
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    for (const operation of operations) route[operation.method](serve(operation));
    route.options((_req, res) => {
      res.set('Allow', allow).status(204).end();
    });
    route.all((req, res) => {
      res.set('Allow', allow);
      const refusal = options.methodNotAllowed(req.method, allow);
      options.sendError(res, refusal.code, refusal.message, refusal.details);
    });
  }
  return router;
}
