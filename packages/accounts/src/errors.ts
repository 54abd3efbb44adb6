import { OperationError } from '@vt/contracts/console';

/** The answer for anything the caller may not see: the same whether it exists or not. */
export const notFound = (what: string) => new OperationError('NOT_FOUND', `No ${what} with that id.`);
