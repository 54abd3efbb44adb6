import { Prisma } from './generated/prisma/client.ts';

/** True for a unique-constraint violation: two requests raced for one slug, email or name. */
export const isUniqueViolation = (err: unknown): boolean =>
  err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
