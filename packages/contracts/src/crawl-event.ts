import { z } from 'zod';

// The crawl ingest channel's contract, in one place: what a sender's line must hold to be kept
// (`crawlEventSchema`, read by the gateway), and what a kept event carries from the gateway to the
// crawl worker (`keptCrawlEventSchema`, inside the queue's crawl-batch job), with the caps both share.

/** Longest value of each field that is kept; a longer host, path or user agent makes the line unusable. */
export const CRAWL_EVENT_CAPS = {
  host: 253,
  path: 8192,
  userAgent: 4096,
  referer: 8192,
  method: 16,
  /** Each of the Web Bot Auth headers a shipper forwards: Signature, Signature-Input, Signature-Agent. */
  signatureHeader: 8192,
} as const;

/** The spec's limit on a batch's name (`Idempotency-Key`), in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export const CRAWL_VERIFICATIONS = ['verified', 'unverified', 'unverifiable'] as const;
export type CrawlVerification = (typeof CRAWL_VERIFICATIONS)[number];

/** ISO 8601 with an offset (`Z`, `+02:00`, `+0200`): a time without one would be a guess. */
const ISO_DAY_AND_TIME = /^\d{4}-\d{2}-\d{2}T/;
const WITH_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/i;

// Postgres text cannot hold NUL: a line carrying one is unusable rather than a batch that never stores.
const withoutNul = (text: string) => !text.includes('\u0000');

/**
 * Text of `min` to `max` characters without NUL, as one check: zod runs each of .min(), .max()
 * and .refine() as a check of its own, and the gateway reads every candidate line with this schema
 * (one check a field measured about four times faster).
 */
const text = (max: number, min = 0) =>
  z
    .string()
    .refine(
      (value) => value.length >= min && value.length <= max && withoutNul(value),
      `must be ${min > 0 ? `${min} to ` : 'at most '}${max} characters, without NUL`,
    );

/** Everything from the first `?` or `#` on is dropped before anything is written (CRAWL-7). */
function stripQuery(text: string): string {
  const q = text.search(/[?#]/);
  return q === -1 ? text : text.slice(0, q);
}

/** `timestamp`: ISO 8601 with an offset, or epoch milliseconds. */
const timestamp = z.union([
  z.number(),
  z.string().refine((value) => ISO_DAY_AND_TIME.test(value) && WITH_OFFSET.test(value), 'must carry an offset'),
]);

/**
 * The fields of the spec's Crawl event as one line of a batch, read strictly where it matters
 * (time, host, path, user agent, status: a line without them is unusable, never kept) and
 * leniently where harmless (an odd `method` or a non-string `referer` or `ip` is left out). Other
 * keys are ignored. Its keys are every field a line can carry: the gateway's raw-text decision
 * places each of them (see the gateway's raw-fields.ts), so a field is never added in one place only.
 */
export const crawlEventLineSchema = z.object({
  timestamp,
  host: text(CRAWL_EVENT_CAPS.host, 1),
  path: z.string(),
  // An empty user agent is no user agent: such an event can never match (CRAWL-8).
  userAgent: text(CRAWL_EVENT_CAPS.userAgent, 1),
  // The lenient fields are optional(): in zod 4 an object key is required unless its schema says so.
  statusCode: z.number().refine((code) => Number.isInteger(code) && code >= 100 && code <= 999, 'must be 100-999'),
  method: z.unknown().optional(),
  referer: z
    .unknown()
    .refine((value) => typeof value !== 'string' || withoutNul(value), 'must not contain NUL')
    .optional(),
  ip: z.unknown().optional(),
  // Web Bot Auth: the raw values of the Signature, Signature-Input and Signature-Agent headers.
  signature: z.unknown().optional(),
  signatureInput: z.unknown().optional(),
  signatureAgent: z.unknown().optional(),
});

/** A field a crawl line can carry. */
export type CrawlEventField = keyof typeof crawlEventLineSchema.shape;

/**
 * A line read as a crawl event: its fields checked by `crawlEventLineSchema`, the output what is
 * kept of it, `ip` aside: that one only verifies a crawler, then is dropped.
 */
export const crawlEventSchema = crawlEventLineSchema.transform((line, ctx) => {
  const { timestamp, host, path, userAgent, statusCode, method, referer, ip } = line;
  const occurredAt = new Date(typeof timestamp === 'number' ? timestamp : Date.parse(timestamp));
  const cleanPath = stripQuery(path);
  // Caps apply to what is kept, after case mapping: some characters lengthen when mapped
  // ('İ' lower-cases to two, 'ß' upper-cases to 'SS'), and a kept value over its cap would fail
  // the job's schema and refuse the whole batch.
  const keptHost = host.toLowerCase();
  // Upper-casing never shortens, so a method already over its cap is not mapped at all.
  const keptMethod =
    typeof method === 'string' && method.length <= CRAWL_EVENT_CAPS.method ? method.toUpperCase() : undefined;
  if (
    Number.isNaN(occurredAt.getTime()) ||
    cleanPath.length > CRAWL_EVENT_CAPS.path ||
    !withoutNul(cleanPath) ||
    keptHost.length > CRAWL_EVENT_CAPS.host
  ) {
    ctx.addIssue({
      code: 'custom',
      message: 'timestamp is not a real instant, or path or host is too long, or path has NUL',
    });
    return z.NEVER;
  }
  return {
    occurredAt: occurredAt.toISOString(),
    host: keptHost,
    path: cleanPath === '' ? '/' : cleanPath,
    userAgent,
    statusCode,
    ...(keptMethod !== undefined && keptMethod.length <= CRAWL_EVENT_CAPS.method ? { method: keptMethod } : {}),
    ...(typeof referer === 'string' && referer !== ''
      ? { referer: stripQuery(referer).slice(0, CRAWL_EVENT_CAPS.referer) }
      : {}),
    ...(typeof ip === 'string' ? { ip } : {}),
    ...signedHeaders(line),
  };
});

/**
 * The three Web Bot Auth headers when all are strings within the cap, else nothing: a signature
 * that cannot be checked whole is no signature. Like `ip`, they decide a verification and are
 * never carried further.
 */
function signedHeaders(line: { signature?: unknown; signatureInput?: unknown; signatureAgent?: unknown }) {
  const { signature, signatureInput, signatureAgent } = line;
  const usable = (value: unknown): value is string =>
    typeof value === 'string' && value !== '' && value.length <= CRAWL_EVENT_CAPS.signatureHeader && withoutNul(value);
  return usable(signature) && usable(signatureInput) && usable(signatureAgent)
    ? { signed: { signature, signatureInput, signatureAgent } }
    : {};
}

/** A line read as a crawl event: the kept fields, and the `ip` and `signed` headers that verify a crawler. */
export type CrawlEvent = z.output<typeof crawlEventSchema>;

/**
 * A kept event as the crawl-batch job carries it: the line's kept fields plus what the gateway
 * decided (the crawler and its verification, or the AI platform that referred the visit). There
 * is deliberately no `ip` field, and `strict` refuses one that slipped in.
 */
export const keptCrawlEventSchema = z.strictObject({
  occurredAt: z.iso.datetime({ offset: true }),
  host: z.string().max(CRAWL_EVENT_CAPS.host),
  path: z.string().max(CRAWL_EVENT_CAPS.path),
  userAgent: z.string().max(CRAWL_EVENT_CAPS.userAgent),
  statusCode: z.number().int().min(100).max(999),
  method: z.string().max(CRAWL_EVENT_CAPS.method).optional(),
  referer: z.string().max(CRAWL_EVENT_CAPS.referer).optional(),
  crawler: z.string().optional(),
  operator: z.string().optional(),
  verification: z.enum(CRAWL_VERIFICATIONS).optional(),
  aiPlatform: z.string().optional(),
});

export type KeptCrawlEvent = z.output<typeof keptCrawlEventSchema>;
