import { z } from 'zod';
import './errors.ts'; // extends zod with .openapi()

// Cursor paging for lists (Stripe's `starting_after` / `ending_before`): a cursor names a row by
// its place in the list's order, its sort key and id, so a page after it is the same page however
// many rows are inserted before it. It is opaque to clients: base64url of the JSON array of those
// values. Decoding is strict: anything but exactly the list's key, each value of its type, is a
// 400 INVALID_PARAM naming the parameter.

/** One value of a sort key as a cursor carries it: null only for a nullable column (a key's revokedAt). */
export type CursorValue = string | number | null;

/** Longer than any real cursor (a 2048-character URL and a count), short enough to refuse junk early. */
const MAX_CURSOR_LENGTH = 4096;

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

export function encodeCursor(values: readonly CursorValue[]): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify(values)));
}

/** The decoded JSON, or undefined when the text is not base64url of UTF-8 JSON. */
function decodeCursor(text: string): unknown {
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

const cursorProblem = 'expected a cursor from this list’s next_cursor or prev_cursor';

/** A cursor parameter whose parsed value is the list's sort key (`key`), checked value by value. */
function cursorParam<Key extends z.ZodTuple>(key: Key, description: string) {
  return z
    .string({ error: () => cursorProblem })
    .max(MAX_CURSOR_LENGTH, { error: () => cursorProblem })
    .regex(/^[A-Za-z0-9_-]+$/, { error: () => cursorProblem })
    .transform((text, ctx): z.output<Key> => {
      const parsed = key.safeParse(decodeCursor(text));
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: cursorProblem });
      return z.NEVER;
    })
    .optional()
    .openapi({ type: 'string', description });
}

/**
 * `starting_after` and `ending_before` for a list sorted by `key` (its sort columns, then id).
 * Their parsed values are the key's values; `encodeCursor` of a row's key makes the cursor.
 */
export function cursorParams<Key extends z.ZodTuple>(key: Key) {
  return {
    starting_after: cursorParam(
      key,
      'A cursor (`next_cursor` of a page): the page starts just after that row, however many rows were added since. Not with `offset` or `ending_before`.',
    ),
    ending_before: cursorParam(
      key,
      'A cursor (`prev_cursor` of a page): the page ends just before that row, paging backwards. Not with `offset` or `starting_after`.',
    ),
  };
}

/**
 * Why the paging parameters cannot be read together, or undefined when they can: one cursor at a
 * time, and a cursor names where the page starts, so an offset beside it would be ambiguous.
 */
export function pagingConflict(query: {
  offset?: number;
  starting_after?: unknown;
  ending_before?: unknown;
}): string | undefined {
  if (query.starting_after !== undefined && query.ending_before !== undefined) {
    return "Invalid query parameter 'ending_before': send either starting_after or ending_before, not both.";
  }
  const cursor =
    query.starting_after !== undefined
      ? 'starting_after'
      : query.ending_before !== undefined
        ? 'ending_before'
        : undefined;
  if (cursor && query.offset !== undefined && query.offset !== 0) {
    return `Invalid query parameter 'offset': page with ${cursor} or with offset, not both.`;
  }
  return undefined;
}

/** What every list answer carries beside `data` and `total`: where the next and previous pages start. */
export const cursorPageFields = {
  has_more: z.boolean().openapi({
    description:
      'Whether more rows lie beyond this page in the direction of paging: after it, or before it when paging with ending_before.',
  }),
  next_cursor: z.string().nullable().openapi({
    description: 'Pass as starting_after for the page after this one; null when no row follows.',
  }),
  prev_cursor: z.string().nullable().openapi({
    description: 'Pass as ending_before for the page before this one; null on the first page.',
  }),
};

export interface CursorPage {
  has_more: boolean;
  next_cursor: string | null;
  prev_cursor: string | null;
}
