import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { defineErrorStatuses, errorCodeEnum } from '@vt/http-operations';
import { z } from 'zod';

extendZodWithOpenApi(z);

/** The read API's error codes and the one status each maps to (with the router's own: 403, 404, 405, 429, 500). */
export const API_ERROR_STATUS = defineErrorStatuses({
  INVALID_PARAM: 400,
  MISSING_AUTH: 401,
  INVALID_AUTH: 401,
  INVALID_KEY: 401,
});

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: errorCodeEnum(API_ERROR_STATUS),
      message: z.string(),
    }),
  })
  .openapi('ErrorEnvelope');

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
