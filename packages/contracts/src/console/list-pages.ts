import { z } from 'zod';
import '../errors.ts'; // extends zod with .openapi()
import { cursorPageFields, cursorParams } from '../list-cursor.ts';
import { cursorCount, cursorId, cursorInstant, cursorText, pageSizeParam } from '../read-params.ts';
import { ALERT_WEBHOOK_LOG_MAX } from './limits.ts';

// Paging of the console's own lists (keys, members, invitations, properties, emails, alert
// webhooks and their delivery log): /v1's cursors (Stripe's starting_after / ending_before, one
// codec, strict decoding) over each list's own order, at most CONSOLE_PAGE_MAX rows a page as
// Stripe and GitHub allow. No offset: these lists are new to paging, and a cursor is stable under
// inserts where an offset is not.

/** The most rows a console list page holds, and its default page size. */
export const CONSOLE_PAGE_MAX = 100;

/** `limit`, `starting_after` and `ending_before` of a list sorted by `key` (its sort columns, then id). */
const listQuery = <Key extends z.ZodTuple>(key: Key, byDefault: number = CONSOLE_PAGE_MAX) =>
  z.object({ limit: pageSizeParam(CONSOLE_PAGE_MAX, byDefault), ...cursorParams(key) });

/** Live keys first, then revoked ones (revokedAt, newest first); each newest created first, then id. */
export const apiKeysQuery = listQuery(z.tuple([cursorInstant.nullable(), cursorInstant, cursorId]));
/** Owners, admins, then members (0, 1, 2); each by name, case ignored; then user id. */
export const membersQuery = listQuery(z.tuple([cursorCount.max(2), cursorText, cursorId]));
/** Newest first, then id. */
export const invitationsQuery = listQuery(z.tuple([cursorInstant, cursorId]));
/** By name, then id. */
export const propertiesQuery = listQuery(z.tuple([cursorText, cursorId]));
/** Newest first, then id. */
export const teamEmailsQuery = listQuery(z.tuple([cursorInstant, cursorId]));
/** Oldest first (the order they were added), then id. */
export const alertWebhooksQuery = listQuery(z.tuple([cursorInstant, cursorId]));
/** The attempts, newest first, then attempt number (highest first), then id. */
export const alertWebhookLogQuery = listQuery(z.tuple([cursorInstant, cursorCount, cursorId]), ALERT_WEBHOOK_LOG_MAX);

/** has_more, next_cursor, prev_cursor: what every paged console list answers beside its rows. */
export const listPageFields = cursorPageFields;
