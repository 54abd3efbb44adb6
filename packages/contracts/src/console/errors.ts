import { defineErrorStatuses, errorCodeEnum, type FieldProblem, Refusal } from '@vt/http-operations';
import { z } from 'zod';
import '../errors.ts';

export type { FieldProblem };

/**
 * The console API's error codes and the one status each maps to (with the router's own: 403,
 * 404, 405, 429, 500). The envelope is /v1's, `{error: {code, message}}`, plus `details` (field
 * paths and messages) on a 400 about a body, query or path.
 */
export const CONSOLE_ERROR_STATUS = defineErrorStatuses({
  INVALID_BODY: 400,
  INVALID_PARAM: 400,
  /** The person belongs to several teams and none is selected (X-Team-Id or PUT /api/session/team). */
  TEAM_NOT_SELECTED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  CSRF_REJECTED: 403,
  /** The operator's direct add (`ops team add-member`): no account has that email. The console invites instead, and never says. */
  USER_NOT_FOUND: 404,
  SLUG_TAKEN: 409,
  EMAIL_TAKEN: 409,
  ALREADY_MEMBER: 409,
  LAST_OWNER: 409,
  /** A competitor with that name, or a prompt with that text, is already on the property. */
  ALREADY_EXISTS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A collection started for a property that has nothing to ask: a Free plan, an inactive subscription, no active prompt. */
  NOTHING_TO_COLLECT: 409,
  /** A property already has as many of something as it may (alert webhooks: 10). */
  LIMIT_REACHED: 409,
  /** An invitation link used after it was revoked: the team withdrew it. */
  INVITATION_REVOKED: 409,
  /** An invitation link used after its days ran out: whoever sent it can resend it. */
  INVITATION_EXPIRED: 409,
  /** An invitation accepted from an account whose email is not the one invited. */
  INVITATION_FOR_ANOTHER_EMAIL: 403,
  /** An Idempotency-Key header that is empty, over 255 characters, or not printable ASCII. */
  IDEMPOTENCY_KEY_INVALID: 400,
  /** The first request under this Idempotency-Key is still running: retry shortly. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** This Idempotency-Key was used for another request (method, path or body) in the last 24 hours. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** A retry of a write whose answer held a secret shown only once (an API key): it is not shown again. */
  SECRET_NOT_REPLAYED: 409,
  /** A deployment secret the operation needs (CRAWL_TOKEN_SECRET, an AI platform key) is not set. */
  NOT_CONFIGURED: 503,
});

export type ConsoleErrorCode = keyof typeof CONSOLE_ERROR_STATUS;

export const consoleErrorSchema = z
  .object({
    error: z.object({
      code: errorCodeEnum(CONSOLE_ERROR_STATUS),
      message: z.string(),
      details: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .openapi({ description: 'On a 400 about the input: each field that failed, by path.' }),
    }),
  })
  .openapi('ConsoleError');

/**
 * A refusal an operation makes on its own terms (a taken slug, the last owner), thrown by the
 * shared operations and answered by the console with its code's status and by ops with the code.
 */
export class OperationError extends Refusal<ConsoleErrorCode> {
  override name = 'OperationError';
}

/** zod issues as field problems: `{path: 'settings.timeZone', message}`; an unknown key is a problem at its own path. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...at, key].join('.'), message: 'unknown field' }));
    }
    return [{ path: at.join('.'), message: issue.message }];
  });
}
