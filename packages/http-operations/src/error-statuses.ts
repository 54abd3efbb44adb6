import { z } from 'zod';

/**
 * The codes every family's router answers on its own (a refusal, no such path or method, a spent
 * budget, a failure), with one status each. Each family's map is built on them.
 */
export const ROUTER_ERROR_STATUS = {
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
} as const;

/** A family's error codes and the one status each maps to: its own codes and the router's. */
export function defineErrorStatuses<const Own extends Record<string, number>>(own: Own) {
  return { ...ROUTER_ERROR_STATUS, ...own };
}

/**
 * The codes as a zod enum, in order of status (codes of one status in the order written, the
 * router's before the family's), so the OpenAPI enum reads as the status table does.
 */
export function errorCodeEnum<Code extends string>(statuses: Record<Code, number>) {
  const codes = (Object.keys(statuses) as Code[]).sort((a, b) => statuses[a] - statuses[b]);
  return z.enum(codes);
}
