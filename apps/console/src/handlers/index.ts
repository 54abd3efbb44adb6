import type { ConsoleHandlers } from '../http/console-operation.ts';
import { accountHandlers } from './account-handlers.ts';
import { apiKeyHandlers } from './api-key-handlers.ts';
import type { HandlerDeps } from './handler-deps.ts';
import { propertyHandlers } from './property-handlers.ts';
import { teamHandlers } from './team-handlers.ts';

export type { HandlerDeps } from './handler-deps.ts';

/** Every console operation's handler. */
export function consoleHandlers(deps: HandlerDeps): ConsoleHandlers {
  return {
    ...accountHandlers(deps),
    ...teamHandlers(deps),
    ...propertyHandlers(deps),
    ...apiKeyHandlers(deps),
  };
}
