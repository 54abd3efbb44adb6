import type { ConsoleEndpointId, consoleEndpoints } from '@vt/contracts/console';
import type { Handler } from '../http/console-operation.ts';
import type { HandlerDeps } from './handler-deps.ts';

/** What an operation's module exports: given what the console works with, its endpoint's handler. */
export type ConsoleHandlerFactory<Id extends ConsoleEndpointId> = (
  deps: HandlerDeps,
) => Handler<(typeof consoleEndpoints)[Id]>;

/**
 * The handler of the catalogued operation `id`, its context (params, query, body, session, team)
 * and answer typed from that endpoint, so a handler that reads what the endpoint does not give, or
 * answers what its schema does not take, does not compile. The id is there for the types alone:
 * `index.ts` pairs each module with its endpoint.
 */
export function defineConsoleHandler<Id extends ConsoleEndpointId>(
  _id: Id,
  factory: ConsoleHandlerFactory<Id>,
): ConsoleHandlerFactory<Id> {
  return factory;
}
