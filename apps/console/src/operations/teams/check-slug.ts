import { checkSlug } from '@vt/accounts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/teams/check-slug: whether a slug is free, and which rule it breaks if not. */
export const checkSlugHandler = defineConsoleHandler(
  'checkSlug',
  ({ db }) =>
    async ({ query }) =>
      checkSlug(db, query.slug),
);
