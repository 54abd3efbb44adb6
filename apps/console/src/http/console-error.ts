import { CONSOLE_ERROR_STATUS, type ConsoleErrorCode } from '@vt/contracts/console';
import { errorEnvelope } from '@vt/http-operations';

/** The challenge every 401 carries: the console takes a session token, as a cookie or a bearer. */
const CHALLENGE = 'Bearer realm="console"';

/** The error envelope `{error: {code, message, details?}}`, with the one status its code maps to (a 401 also gets WWW-Authenticate). */
export const sendConsoleError = errorEnvelope<ConsoleErrorCode>({
  statuses: CONSOLE_ERROR_STATUS,
  body: (code, message, details) => ({ error: { code, message, ...(details?.length ? { details } : {}) } }),
  challenge: (_code, status) => (status === 401 ? CHALLENGE : undefined),
});
