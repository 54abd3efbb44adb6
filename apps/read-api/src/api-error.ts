import { API_ERROR_STATUS, type ApiErrorCode, READ_API_AUTH_CHALLENGES } from '@vt/contracts';
import { errorEnvelope, Refusal } from '@vt/http-operations';

/** A /v1 answer other than success, thrown by any step of a request and sent in the envelope. */
export class ApiRefusal extends Refusal<ApiErrorCode> {}

const challenges: Partial<Record<ApiErrorCode, string>> = READ_API_AUTH_CHALLENGES;

/** The error envelope `{error: {code, message}}`, with the one status its code maps to; a 401 also gets its Bearer challenge. */
export const sendApiError = errorEnvelope<ApiErrorCode>({
  statuses: API_ERROR_STATUS,
  body: (code, message) => ({ error: { code, message } }),
  challenge: (code) => challenges[code],
});
