import {
  API_ERROR_STATUS,
  type ApiErrorCode,
  type RATE_LIMIT_HEADERS,
  READ_API_AUTH_CHALLENGES,
  type ReadEndpoint,
} from '@vt/contracts';
import type { ReadOperation } from '@vt/read-model';
import { type DayRange, pageOf, resolveDayRange } from '@vt/read-model';
import { type Request, type Response, Router } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';
import { ZodObject, type z } from 'zod';
import { type AnswerCache, answerCacheKey } from './answer-cache.ts';
import type { ApiKeyAuthenticator } from './api-key-auth.ts';
import type { RateLimitDecision, ReadRateLimiter } from './rate-limiter.ts';

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
/** The range handed to operations that take none. */
const NO_RANGE: DayRange = { from: '', to: '' };

export interface ReadRoute {
  endpoint: ReadEndpoint;
  operation: ReadOperation<never>;
}

export interface V1RouterDeps {
  routes: readonly ReadRoute[];
  authenticator: ApiKeyAuthenticator;
  rateLimiter: ReadRateLimiter;
  answerCache: AnswerCache;
  registry: Registry;
  now: () => Date;
}

/** The error envelope, with the one status its code maps to; a 401 also gets its Bearer challenge. */
export function sendApiError(res: Response, code: ApiErrorCode, message: string): void {
  if (code in READ_API_AUTH_CHALLENGES) {
    res.set('WWW-Authenticate', READ_API_AUTH_CHALLENGES[code as keyof typeof READ_API_AUTH_CHALLENGES]);
  }
  res.status(API_ERROR_STATUS[code]).json({ error: { code, message } });
}

function setRateLimitHeaders(res: Response, decision: RateLimitDecision): void {
  const values: Record<keyof typeof RATE_LIMIT_HEADERS, number> = {
    'X-RateLimit-Limit': decision.limit,
    'X-RateLimit-Remaining': decision.remaining,
    'X-RateLimit-Reset': decision.resetAt,
  };
  for (const [name, value] of Object.entries(values)) res.set(name, String(value));
}

/** `Invalid query parameter 'limit': expected an integer from 1 to 1000.` */
function invalidParamMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  const name = String(issue?.path[0] ?? 'query');
  return `Invalid query parameter '${name}': ${issue?.message ?? 'malformed'}.`;
}

/** `/v1/responses/{id}` → `/responses/:id`, relative to where the router is mounted. */
const expressPath = (openApiPath: string) => openApiPath.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1');

/**
 * Every /v1 route, from the endpoint catalogue. Per GET (and HEAD): authenticate, validate the
 * query, count the request against the key's budget, run the operation. A 400 or 401 is not
 * counted and, like 404 and 500, carries no budget headers; only 200 and 429 do.
 */
export function createV1Router(deps: V1RouterDeps): Router {
  const router = Router({ strict: false });
  const metrics = readApiMetrics(deps.registry);

  for (const { endpoint, operation } of deps.routes) {
    const takesDayRange = endpoint.query instanceof ZodObject && 'to' in endpoint.query.shape;
    const answer = async (req: Request, res: Response) => {
      const stopTimer = metrics.duration.startTimer({ operation: endpoint.operationId });
      res.on('finish', () => {
        stopTimer({ status: String(res.statusCode) });
        metrics.requests.inc({ operation: endpoint.operationId, status: String(res.statusCode) });
      });

      const auth = await deps.authenticator.authenticate(req.headers.authorization);
      if (!auth.ok) return sendApiError(res, auth.code, auth.message);

      let query: Record<string, unknown> = {};
      if (endpoint.query) {
        const parsed = endpoint.query.safeParse(req.query);
        if (!parsed.success) return sendApiError(res, 'INVALID_PARAM', invalidParamMessage(parsed.error));
        query = parsed.data as Record<string, unknown>;
      }
      // Only time series read a range; the others keep one constant range, so neither the clock nor
      // midnight touches their cache keys.
      const range = takesDayRange ? resolveDayRange(query, deps.now()) : NO_RANGE;
      if ('invalid' in range) return sendApiError(res, 'INVALID_PARAM', range.message);

      const decision = await deps.rateLimiter.consume(auth.principal.keyId);
      if (!decision.allowed) {
        setRateLimitHeaders(res, decision);
        res.set('Retry-After', String(decision.retryAfterSeconds));
        return sendApiError(
          res,
          'RATE_LIMIT_EXCEEDED',
          `This key used its ${decision.limit} requests for this minute; retry in ${decision.retryAfterSeconds} s.`,
        );
      }

      const id = typeof req.params.id === 'string' ? req.params.id : undefined;
      const body = await deps.answerCache.answer(
        answerCacheKey({
          operationId: endpoint.operationId,
          propertyIds: auth.principal.propertyIds,
          query,
          range,
          id,
        }),
        () => operation({ principal: auth.principal, query: query as never, range, page: pageOf(query), id }),
      );
      if (body === null) {
        // Counted (it cost a lookup), but budget headers go only on 200 and 429.
        return sendApiError(res, 'NOT_FOUND', "Nothing with that id is in this key's scope.");
      }
      // Budget and deprecation headers are set only here and on the 429: no other answer has them.
      setRateLimitHeaders(res, decision);
      if (endpoint.deprecation) {
        res.set({
          Deprecation: `@${Math.floor(endpoint.deprecation.deprecatedAt.getTime() / 1000)}`,
          Sunset: endpoint.deprecation.sunsetAt.toUTCString(),
        });
      }
      res.status(200).type('application/json; charset=utf-8').send(body);
    };

    router
      .route(expressPath(endpoint.path))
      .get(answer)
      .options((_req, res) => {
        res.set('Allow', ALLOWED_METHODS).status(204).end();
      })
      .all((req, res) => {
        res.set('Allow', ALLOWED_METHODS);
        sendApiError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use GET, HEAD or OPTIONS.`);
      });
  }
  return router;
}

function readApiMetrics(registry: Registry) {
  return {
    requests: new Counter({
      name: 'vt_read_requests_total',
      help: 'Read API requests by operation and answer status.',
      labelNames: ['operation', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'vt_read_request_duration_seconds',
      help: 'Read API request duration by operation and answer status.',
      labelNames: ['operation', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}
