import { describe, expect, it } from 'vitest';
import { defineErrorStatuses, errorCodeEnum, ROUTER_ERROR_STATUS } from './error-statuses.ts';

describe('defineErrorStatuses', () => {
  it('adds the router’s own codes to a family’s, each with one status', () => {
    const statuses = defineErrorStatuses({ INVALID_PARAM: 400, MISSING_AUTH: 401 });
    expect(statuses).toEqual({ ...ROUTER_ERROR_STATUS, INVALID_PARAM: 400, MISSING_AUTH: 401 });
  });

  it('lists the codes in order of status, the router’s first among codes of one status', () => {
    const statuses = defineErrorStatuses({ INVALID_PARAM: 400, CSRF_REJECTED: 403, USER_NOT_FOUND: 404, GONE: 410 });
    expect(errorCodeEnum(statuses).options).toEqual([
      'INVALID_PARAM',
      'FORBIDDEN',
      'CSRF_REJECTED',
      'NOT_FOUND',
      'USER_NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      'GONE',
      'RATE_LIMIT_EXCEEDED',
      'INTERNAL_ERROR',
    ]);
  });
});
