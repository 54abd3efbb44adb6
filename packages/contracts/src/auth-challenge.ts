import type { ApiErrorCode } from './errors.ts';

/**
 * The `WWW-Authenticate` of each 401 the read API answers (RFC 9110 requires one on every 401;
 * RFC 6750 gives its form for bearer tokens): no credentials get the bare challenge, a header that
 * is not `Bearer <key>` gets `invalid_request`, a refused key `invalid_token`.
 */
export const READ_API_AUTH_CHALLENGES = {
  MISSING_AUTH: 'Bearer realm="read-api"',
  INVALID_AUTH: 'Bearer realm="read-api", error="invalid_request"',
  INVALID_KEY: 'Bearer realm="read-api", error="invalid_token"',
} as const satisfies Record<Extract<ApiErrorCode, 'MISSING_AUTH' | 'INVALID_AUTH' | 'INVALID_KEY'>, string>;
