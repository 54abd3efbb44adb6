import { CONSOLE_ERROR_STATUS, type ConsoleErrorCode, type FieldProblem } from '@vt/contracts/console';
import type { Response } from 'express';

/** The challenge every 401 carries: the console takes a session token, as a cookie or a bearer. */
const CHALLENGE = 'Bearer realm="console"';

/** The error envelope, with the one status its code maps to (a 401 also gets WWW-Authenticate). */
export function sendConsoleError(
  res: Response,
  code: ConsoleErrorCode,
  message: string,
  details?: FieldProblem[],
): void {
  const status = CONSOLE_ERROR_STATUS[code];
  if (status === 401) res.set('WWW-Authenticate', CHALLENGE);
  res.status(status).json({ error: { code, message, ...(details?.length ? { details } : {}) } });
}
