import { z } from 'zod';
import './errors.ts'; // extends zod with .openapi()
import { type CursorValue, cursorParams } from './list-cursor.ts';
import { TASK_STATUSES } from './resources.ts';

// Query parameters of the read API. Each schema carries the sentence a 400 INVALID_PARAM message
// ends with ("Invalid query parameter 'limit': expected an integer from 1 to 1000."), so the
// message, the validation and the OpenAPI parameter all come from one place.

const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;
/** Offsets are bounded to what Postgres takes as an int4 OFFSET without surprise. */
const MAX_OFFSET = 2_147_483_647;
/** A default range covers this many UTC days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

const expected = (text: string) => ({ error: () => `expected ${text}` });

/** A decimal integer and nothing else: `1e2`, ` 5`, `0x10` and `5.0` are refused, not coerced. */
function integerParam(min: number, max: number) {
  const error = expected(`an integer from ${min} to ${max}`);
  return z.preprocess(
    (raw) => (typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw),
    z.number(error).int(error).min(min, error).max(max, error),
  );
}

function isRealUtcDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Years before 1900 hold no answers, and keep the 29-day default clear of year 0, which Postgres refuses. */
const utcDayParam = z
  .string(expected('a UTC day as yyyy-MM-dd'))
  // A string that is not a day at all is not also asked whether it is a real one: one problem each.
  .regex(/^(19|[2-9]\d)\d{2}-\d{2}-\d{2}$/, {
    ...expected('a UTC day as yyyy-MM-dd, from 1900-01-01 to 9999-12-31'),
    abort: true,
  })
  .refine(isRealUtcDay, expected('a real calendar day as yyyy-MM-dd'));

/**
 * Printable text only: a NUL or another control character (Unicode's Cc: U+0000-U+001F and
 * U+007F-U+009F) never reaches Postgres. Spelled without `\p{Cc}` and without a flag because the
 * pattern is also the OpenAPI document's: JSON Schema patterns carry no flags, and the generator
 * would write `/u` into the pattern itself.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses
const PRINTABLE = /^[^\x00-\x1F\x7F-\x9F]+$/;

const anyGuid = z.guid();
/** Whether `text` is a UUID as the id parameters accept it (any version, any case). */
export const isUuid = (text: string): boolean => anyGuid.safeParse(text).success;

const idParam = (what: string) =>
  z
    .guid(expected(`a UUID (the id of ${what})`))
    .transform((id) => id.toLowerCase())
    .openapi({ format: 'uuid' });

const booleanParam = z.preprocess(
  (raw) => (raw === 'true' ? true : raw === 'false' ? false : raw),
  z.boolean(expected('true or false')),
);

/**
 * `limit` of a list whose pages hold at most `max` rows, `byDefault` when not given (the console's
 * lists, whose web UI reads a whole page by default).
 */
export const pageSizeParam = (max: number, byDefault: number) =>
  integerParam(1, max)
    .default(byDefault)
    .openapi({ description: `Page size, 1 to ${max}.`, default: byDefault });

export const pagingParams = {
  limit: integerParam(1, MAX_PAGE_SIZE)
    .optional()
    .openapi({ description: `Page size, 1 to ${MAX_PAGE_SIZE}.`, default: DEFAULT_PAGE_SIZE }),
  offset: integerParam(0, MAX_OFFSET)
    .optional()
    .openapi({ description: 'Rows to skip before the page starts.', default: 0 }),
};

/** `from` and `to`, inclusive UTC days, as every time series reads them (the console's activity too). */
export const dateRangeParams = {
  from: utcDayParam.optional().openapi({
    description:
      'Range start, a UTC day (yyyy-MM-dd), inclusive. Omitted: 29 days before `to`, so the range spans 30 days.',
    format: 'date',
  }),
  to: utcDayParam.optional().openapi({
    description:
      'Range end, a UTC day (yyyy-MM-dd), inclusive. Omitted: today (UTC), also when only `from` is given. Must not be before `from`.',
    format: 'date',
  }),
};

const propertyIdParam = idParam('a property on /v1/properties').optional().openapi({
  description: 'One property only. A property outside the key’s scope gives an empty list, not an error.',
});

const modelParam = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, expected('an AI platform identifier (letters, digits, . _ -; at most 64)'))
  .optional()
  .openapi({
    description: 'One AI platform only (chatgpt, perplexity, claude, gemini, copilot). An unknown one matches nothing.',
    example: 'chatgpt',
  });

/**
 * The sort keys that cursors carry, one per list order (id last, so every key names one row).
 * Each value is checked as strictly as the parameter it mirrors.
 */
const cursorDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isRealUtcDay);
export const cursorId = z.guid().transform((id) => id.toLowerCase());
export const cursorInstant = z.iso.datetime();
export const cursorCount = z.number().int().min(0);
export const cursorText = z.string().min(1).max(4096);
const cursorModel = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/);

/** Newest day first, then id: /v1/responses. */
export const byDayThenId = cursorParams(z.tuple([cursorDay, cursorId]));
/** Newest created first, then id: tasks, properties, prompts (and the console's keys, members, …). */
export const byCreatedThenId = cursorParams(z.tuple([cursorInstant, cursorId]));
/** Newest day first, then property id and model: /v1/visibility. */
const byDayPropertyModel = cursorParams(z.tuple([cursorDay, cursorId, cursorModel]));
/** Most mentioned first, then name and id: /v1/competitors. */
const byMentionsThenName = cursorParams(z.tuple([cursorCount, cursorText, cursorId]));
/** Most cited first, then the domain or URL: /v1/sources, /v1/sources/urls. */
const byCitationsThenName = cursorParams(z.tuple([cursorCount, cursorText]));

export const listResponsesQuery = z.object({
  propertyId: propertyIdParam,
  promptId: idParam('a prompt on /v1/prompts').optional().openapi({ description: 'One prompt only.' }),
  model: modelParam,
  mentioned: booleanParam.optional().openapi({ description: 'true: only hits; false: only misses.' }),
  ...dateRangeParams,
  ...pagingParams,
  ...byDayThenId,
});

export const listTasksQuery = z.object({
  propertyId: propertyIdParam,
  status: z
    .enum(TASK_STATUSES, expected(`one of ${TASK_STATUSES.join(', ')}`))
    .optional()
    .openapi({ description: 'One status only.' }),
  ...pagingParams,
  ...byCreatedThenId,
});

export const listPropertiesQuery = z.object({ ...pagingParams, ...byCreatedThenId });

export const listPromptsQuery = z.object({ propertyId: propertyIdParam, ...pagingParams, ...byCreatedThenId });

export const visibilityQuery = z.object({
  propertyId: propertyIdParam,
  model: modelParam,
  promptId: idParam('a prompt on /v1/prompts')
    .optional()
    .openapi({ description: 'Count only the answers to one prompt.' }),
  ...dateRangeParams,
  ...pagingParams,
  ...byDayPropertyModel,
});

export const competitorsQuery = z.object({
  propertyId: propertyIdParam,
  ...dateRangeParams,
  ...pagingParams,
  ...byMentionsThenName,
});

export const sourcesQuery = z.object({
  propertyId: propertyIdParam,
  model: modelParam,
  ...dateRangeParams,
  ...pagingParams,
  ...byCitationsThenName,
});

export const sourceUrlsQuery = sourcesQuery.extend({
  domain: z
    .string()
    .min(1, expected('a host name'))
    .max(253, expected('a host name of at most 253 characters'))
    .regex(PRINTABLE, expected('a host name without control characters'))
    .transform((domain) => domain.toLowerCase().replace(/^www\./, ''))
    .optional()
    .openapi({ description: 'URLs on this domain only (a leading www. is ignored).', example: 'wikipedia.org' }),
});

/** Paging as every list reads it: a cursor's values are its list's sort key. */
export type PagingQuery = {
  limit?: number;
  offset?: number;
  starting_after?: readonly CursorValue[];
  ending_before?: readonly CursorValue[];
};
export type DateRangeQuery = { from?: string; to?: string };
/** What the read API itself reads of any /v1 query: the property that narrows the scope, the range and the page. */
export type ReadQuery = PagingQuery & DateRangeQuery & { propertyId?: string };
export type ListResponsesQuery = z.output<typeof listResponsesQuery>;
export type ListTasksQuery = z.output<typeof listTasksQuery>;
export type ListPropertiesQuery = z.output<typeof listPropertiesQuery>;
export type ListPromptsQuery = z.output<typeof listPromptsQuery>;
export type VisibilityQuery = z.output<typeof visibilityQuery>;
export type CompetitorsQuery = z.output<typeof competitorsQuery>;
export type SourcesQuery = z.output<typeof sourcesQuery>;
export type SourceUrlsQuery = z.output<typeof sourceUrlsQuery>;
