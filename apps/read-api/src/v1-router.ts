import { type ApiErrorCode, pagingConflict, type RATE_LIMIT_HEADERS } from '@vt/contracts';
import { createOperationRouter, setPageLinks } from '@vt/http-operations';
import { type DayRange, pageOf, propertiesToRead, resolveDayRange } from '@vt/read-model';
import type { Request, Response, Router } from 'express';
import type { Registry } from 'prom-client';
import type { z } from 'zod';
import { type AnswerCache, answerCacheKey } from './answer-cache.ts';
import { ApiRefusal, sendApiError } from './api-error.ts';
import type { ApiKeyAuthenticator } from './api-key-auth.ts';
import { type PreparedAnswer, prepareAnswer, sendPreparedAnswer } from './conditional-answer.ts';
import type { RateLimitDecision, ReadRateLimiter } from './rate-limiter.ts';
import type { ReadCall, V1Context, V1Operation } from './read-route.ts';

export { sendApiError } from './api-error.ts';
export type { ReadRoute } from './read-route.ts';

/** The range handed to operations that take none. */
const NO_RANGE: DayRange = { from: '', to: '' };

export interface V1RouterDeps {
  routes: readonly V1Operation[];
  authenticator: ApiKeyAuthenticator;
  rateLimiter: ReadRateLimiter;
  answerCache: AnswerCache;
  registry: Registry;
  now: () => Date;
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

/**
 * Every /v1 route, from the endpoint catalogue. Per GET (and HEAD): authenticate, validate the
 * query, resolve the key's scope and the day range once, count the request against the key's
 * budget, run the operation. A 400 or 401 is not counted and, like 404 and 500, carries no
 * budget headers; only 200 and 429 do. A 304 (the client's `If-None-Match` names the answer) is
 * counted, since the answer was looked up to compare, and carries none either (READ-17).
 */
export function createV1Router(deps: V1RouterDeps): Router {
  /** The pipeline after validation, for one request of one key on one endpoint. */
  const reader =
    (operation: V1Operation, principal: V1Context['principal'], req: Request, res: Response) =>
    async ({ query, id, operation: read }: ReadCall): Promise<PreparedAnswer> => {
      const { endpoint } = operation.meta;
      // Only time series read a range; the others keep one constant range, so neither the clock nor
      // midnight touches their cache keys.
      const range = endpoint.dayRange ? resolveDayRange(query, deps.now()) : NO_RANGE;
      if ('invalid' in range) throw new ApiRefusal('INVALID_PARAM', range.message);
      const conflict = pagingConflict(query);
      if (conflict) throw new ApiRefusal('INVALID_PARAM', conflict);

      const decision = await deps.rateLimiter.consume(principal.keyId);
      if (!decision.allowed) {
        setRateLimitHeaders(res, decision);
        res.set('Retry-After', String(decision.retryAfterSeconds));
        throw new ApiRefusal(
          'RATE_LIMIT_EXCEEDED',
          `This key used its ${decision.limit} requests for this minute; retry in ${decision.retryAfterSeconds} s.`,
        );
      }

      const propertyIds = propertiesToRead(principal, query.propertyId);
      const answer = await deps.answerCache.answer(
        answerCacheKey({ operationId: endpoint.operationId, propertyIds, query, range, id }),
        () => read({ principal, propertyIds, query, range, page: pageOf(query), id }),
      );
      // Counted (it cost a lookup), but budget headers go only on 200 and 429.
      if (answer === null) throw new ApiRefusal('NOT_FOUND', "Nothing with that id is in this key's scope.");
      const prepared = await prepareAnswer(req, answer);
      if (prepared.notModified) return prepared;
      if (answer.cursors) setPageLinks(req, res, answer.cursors);
      // Budget and deprecation headers are set only here and on the 429: no other answer has them.
      setRateLimitHeaders(res, decision);
      if (endpoint.deprecation) {
        res.set({
          Deprecation: `@${Math.floor(endpoint.deprecation.deprecatedAt.getTime() / 1000)}`,
          Sunset: endpoint.deprecation.sunsetAt.toUTCString(),
        });
      }
      return prepared;
    };

  return createOperationRouter<V1Context, V1Operation['meta'], ApiErrorCode>({
    operations: deps.routes,
    mountedAt: '/v1',
    metrics: { registry: deps.registry, prefix: 'vt_read', subject: 'Read API' },
    sendError: sendApiError,
    refusal: ApiRefusal,
    context: async (req, res, operation) => {
      const auth = await deps.authenticator.authenticate(req.headers.authorization);
      if (!auth.ok) throw new ApiRefusal(auth.code, auth.message);
      return { principal: auth.principal, read: reader(operation, auth.principal, req, res) };
    },
    invalidInput: (_part, error) => new ApiRefusal('INVALID_PARAM', invalidParamMessage(error)),
    methodNotAllowed: (method) =>
      new ApiRefusal('METHOD_NOT_ALLOWED', `${method} is not allowed here; use GET, HEAD or OPTIONS.`),
    respond: (res, _operation, prepared) => sendPreparedAnswer(res, prepared as PreparedAnswer),
  });
}
