import { OperationError } from '@vt/contracts/console';
import { Prisma } from '@vt/db';

/** True for a unique-constraint violation (two requests racing for one slug or email). */
export const isUniqueViolation = (err: unknown) =>
  err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';

/** The answer for anything the caller may not see: the same whether it exists or not. */
export const notFound = (what: string) => new OperationError('NOT_FOUND', `No ${what} with that id.`);
