import { CRAWL_PROVIDER_IDS, LEAD_WEBHOOK_LIMITS, MAX_IDEMPOTENCY_KEY_LENGTH } from '@vt/contracts';
import { errorEnvelope } from '@vt/http-operations';
import type { Response } from 'express';

/**
 * One way the gateway turns a request away, as the sender reads it: `{error, hint, reason}`
 * (`details` names each bad field of an invalid lead). `reason` is absent only where the spec
 * gives none: the webhook's 404 and 503.
 */
export interface Rejection<Code extends string = string> {
  status: number;
  /** The catalogue's name of the rejection, for metrics; never sent (see `reason`). */
  code: Code;
  reason?: string;
  error: string;
  hint: string;
  details?: { field: string; problem: string }[];
}

/** The words of a rejection; a function where they name the request's own figures. */
type Words<A extends unknown[]> = string | ((...args: A) => string);

interface Entry<A extends unknown[]> {
  status: number;
  error: Words<A>;
  hint: Words<A>;
  /** False for the spec's rejections that carry no reason code. */
  hasReason?: false;
}

/**
 * Which headers a lead delivery came with: the spec's `x-webhook-id`, `x-webhook-timestamp` and
 * `x-webhook-signature`, or Standard Webhooks' `webhook-id`, `webhook-timestamp` and `webhook-signature`.
 */
export type WebhookHeaders = 'x-webhook' | 'webhook';

/**
 * Why a crawl body is unreadable: a gzip stream that does not inflate, not one readable line, or
 * (a provider's endpoint) not that provider's delivery.
 */
type UnreadableCause = 'corrupt_gzip' | 'no_readable_line' | 'not_firehose';

/** Gives each entry its type, so `rejection()` asks for exactly the arguments its words take. */
const entry = <A extends unknown[] = []>(e: Entry<A>): Entry<A> => e;

/**
 * Every rejection of crawl ingest, by reason (the crawl table of docs/log-shippers.md is checked against it).
 * The order is the order of the checks.
 */
export const CRAWL_REJECTIONS = {
  ingest_not_configured: entry({
    status: 503,
    error: 'Crawl ingest is not configured on this deployment',
    hint: 'The operator must set CRAWL_TOKEN_SECRET. Retry later with backoff.',
  }),
  unknown_provider: entry({
    status: 404,
    error: (provider: string) => `No crawl ingest for a provider named ${provider}`,
    hint: `Providers: ${CRAWL_PROVIDER_IDS.join(', ')}. Copy the URL from the property's setup dialog.`,
  }),
  missing_token: entry({
    status: 401,
    error: 'No crawl token',
    hint: 'Send Authorization: Bearer <crawl token>, or ?token=<crawl token> when headers cannot be set.',
  }),
  property_not_found: entry({
    status: 404,
    error: (propertyId: string) => `No property with id ${propertyId}`,
    hint: 'Copy the ingest URL from the property setup; it ends with the property id.',
  }),
  invalid_token: entry({
    status: 401,
    error: 'The crawl token is not valid for this property',
    hint: 'Use the current token from the property setup; a rotated token stops working at once.',
  }),
  // The same 401 as invalid_token, told apart in the delivery log: the token is one this property
  // had before a rotation, so the attempt is its sender's and counts toward the connection status.
  rotated_token: entry({
    status: 401,
    error: 'The crawl token was rotated: this property no longer accepts it',
    hint: 'Copy the current token from the property setup into the sender; a rotated token stops working at once.',
  }),
  // Issue 33: past the failed-attempt limits (per property, per source address) a wrong token is
  // answered 429, counted in the delivery log's summary; a valid token is never limited here.
  too_many_failed_attempts: entry({
    status: 429,
    error: 'Too many attempts with a wrong token; this one was not checked further',
    hint: (retryAfterSeconds: number) =>
      `Use the current token from the property setup, and retry after ${retryAfterSeconds} seconds (Retry-After).`,
  }),
  signature_mismatch: entry({
    status: 403,
    error: 'x-vercel-signature does not match the body',
    hint: "Set the drain's signature secret to the one in the property's setup dialog (it changes when the token is rotated).",
  }),
  unknown_fields: entry({
    status: 400,
    error: (fields: string) => `The field list "${fields}" cannot be read`,
    hint: 'List the real-time log configuration’s fields in CloudFront’s order, among them timestamp, cs-host, cs-uri-stem, cs-user-agent and sc-status; or select exactly the setup dialog’s fields and leave the list out.',
  }),
  plan_required: entry({
    status: 402,
    error: (lapsed: boolean) => (lapsed ? 'The subscription has lapsed' : 'Crawl ingest needs a paid plan'),
    hint: 'Upgrade the property to Starter, Growth or Scale (or renew it); do not retry until then.',
  }),
  connection_disconnected: entry({
    status: 403,
    error: 'Crawl ingestion is switched off for this property',
    hint: 'Reconnect the property in its setup dialog, then send again.',
  }),
  idempotency_key_too_long: entry({
    status: 400,
    error: (length: number) =>
      `Idempotency-Key is ${length} characters; at most ${MAX_IDEMPOTENCY_KEY_LENGTH} are allowed`,
    hint: 'Mint a shorter key once per batch (a UUID is fine) and reuse it on every retry of that batch.',
  }),
  batch_in_progress: entry({
    status: 503,
    error: 'Another attempt at this batch (the same Idempotency-Key) is still being stored; nothing was read',
    hint: "Retry after Retry-After seconds under the same Idempotency-Key: the retry is answered with the first attempt's figures.",
  }),
  body_too_large: entry({
    status: 413,
    error: 'The body is over the size cap; nothing from it was stored',
    hint: (maxWireBytes: number, maxInflatedBytes: number) =>
      `Send at most ${exactSize(maxWireBytes)} on the wire and ${exactSize(maxInflatedBytes)} once inflated: split the batch and send both halves (each with its own Idempotency-Key).`,
  }),
  unreadable_body: entry({
    status: 400,
    error: (cause: UnreadableCause) =>
      cause === 'corrupt_gzip'
        ? 'The body looks gzipped but does not inflate'
        : cause === 'not_firehose'
          ? 'The body is not an Amazon Data Firehose delivery'
          : 'No line of the body could be read',
    hint: (cause: UnreadableCause) =>
      cause === 'corrupt_gzip'
        ? 'Send the complete gzip stream of NDJSON or a JSON array, or send it uncompressed.'
        : cause === 'not_firehose'
          ? 'This endpoint takes Firehose HTTP endpoint deliveries: {"requestId", "timestamp", "records": [{"data": <base64>}]}, at most 10,000 records.'
          : 'Send NDJSON (one JSON crawl event per line, Content-Type: application/x-ndjson) or a JSON array of crawl events (application/json).',
  }),
  queue_unavailable: entry({
    status: 503,
    error: 'The batch could not be queued; nothing was stored',
    hint: 'Retry with backoff under the same Idempotency-Key.',
  }),
  // REDIS_DURABILITY=replicated only: the batch reached the master but no replica confirmed it in
  // time, so it may be lost at a failover, or may be queued already; a retry under the same
  // Idempotency-Key counts it once either way.
  not_replicated: entry({
    status: 503,
    error: 'The batch was not confirmed by a Redis replica in time; it may or may not be queued',
    hint: 'Retry with backoff under the same Idempotency-Key (it is then counted once).',
  }),
  internal_error: entry({ status: 500, error: 'Internal error', hint: 'Retry with backoff.' }),
};

/**
 * Every rejection of the lead webhook, by reason (the webhook table of docs/webhook-senders.md is checked against
 * it). The order is the order of the checks; the spec's 404 and 503 carry no reason.
 */
export const LEAD_REJECTIONS = {
  property_not_found: entry({
    status: 404,
    hasReason: false,
    error: (propertyId: string) => `No property with id ${propertyId}`,
    hint: 'Copy the webhook URL from the property setup; it ends with the property id.',
  }),
  webhook_not_configured: entry({
    status: 503,
    hasReason: false,
    error: 'The lead webhook is not configured on this deployment',
    hint: 'The operator must set WEBHOOK_SIGNING_KEY. Retry later with the same x-webhook-id.',
  }),
  missing_event_id: entry({
    status: 400,
    error: (length: number, headers: WebhookHeaders = 'x-webhook') =>
      length > 0
        ? `${headers}-id is ${length} characters; at most ${LEAD_WEBHOOK_LIMITS.maxEventIdLength} are allowed`
        : 'No x-webhook-id header (nor a Standard Webhooks webhook-id)',
    hint: (_length: number, headers: WebhookHeaders = 'x-webhook') =>
      `Send a unique id of at most ${LEAD_WEBHOOK_LIMITS.maxEventIdLength} characters per lead in ${headers}-id, and reuse it when you retry.`,
  }),
  missing_timestamp: entry({
    status: 400,
    error: (headers: WebhookHeaders = 'x-webhook') => `No ${headers}-timestamp header`,
    hint: (headers: WebhookHeaders = 'x-webhook') =>
      `Send the current time in Unix seconds in ${headers}-timestamp, and sign it.`,
  }),
  stale_timestamp: entry({
    status: 400,
    error: (headers: WebhookHeaders = 'x-webhook') =>
      `${headers}-timestamp is not Unix seconds within five minutes of the service clock`,
    hint: 'Stamp each attempt with the current Unix time in seconds (check the sender clock), sign again and resend.',
  }),
  missing_signature: entry({
    status: 401,
    error: (headers: WebhookHeaders = 'x-webhook') => `No ${headers}-signature header`,
    hint: (headers: WebhookHeaders = 'x-webhook') =>
      headers === 'webhook'
        ? 'Sign with a Standard Webhooks library and the signing secret; send its v1,<base64> signature.'
        : 'Sign {id}.{timestamp}.{body} with HMAC-SHA256 and the signing secret; send the lowercase hex digest.',
  }),
  body_too_large: entry({
    status: 413,
    error: `The body is over 64 KB (${LEAD_WEBHOOK_LIMITS.maxBodyBytes} bytes)`,
    hint: 'A lead is small: send only the Lead fields, each within its maximum length.',
  }),
  invalid_signature: entry({
    status: 401,
    error: 'The signature does not match {id}.{timestamp}.{body}',
    hint: (headers: WebhookHeaders = 'x-webhook') =>
      headers === 'webhook'
        ? 'Sign the exact bytes you send with a Standard Webhooks library and this property’s signing secret (whsec_…, as shown).'
        : 'Sign the exact bytes you send, with this property’s signing secret as UTF-8, and send the lowercase hex HMAC-SHA256.',
  }),
  // Issue 33: past the failed-attempt limits (per property, per source address) a delivery
  // refused before its signature verified is answered 429, counted in the delivery log's summary.
  too_many_failed_attempts: entry({
    status: 429,
    error: 'Too many deliveries refused before their signature verified; this one was not checked further',
    hint: (retryAfterSeconds: number) =>
      `Sign each delivery with this property’s signing secret and a current timestamp, and retry after ${retryAfterSeconds} seconds (Retry-After).`,
  }),
  invalid_json: entry({
    status: 400,
    error: 'The body is not valid JSON',
    hint: 'Send one JSON object (a Lead), serialised once; sign and send that same string.',
  }),
  invalid_payload: entry({
    status: 400,
    error: (problems: string) => `Invalid lead: ${problems}`,
    hint: 'Fix the fields named in details and send again under a new x-webhook-id.',
  }),
  // The spec names one 500 reason for the webhook, whatever went wrong.
  storage_failed: entry({
    status: 500,
    error: 'The lead could not be stored',
    hint: 'Retry with the same x-webhook-id, a fresh timestamp and a fresh signature.',
  }),
  // REDIS_DURABILITY=replicated only, as for crawl batches: the lead id derives from the
  // x-webhook-id, so a retry of a lead that was queued after all is stored once.
  not_replicated: entry({
    status: 503,
    error: 'The lead was not confirmed by a Redis replica in time; it may or may not be queued',
    hint: 'Retry with the same x-webhook-id, a fresh timestamp and a fresh signature (it is then stored once).',
  }),
};

/** Any other path or method of the gateway, and a path that does not percent-decode. */
const GATEWAY_REJECTIONS = {
  not_found: entry({
    status: 404,
    error: (request: string) => `No endpoint at ${request}`,
    hint: 'Crawl batches go to POST /api/ingest/crawl/{propertyId}; leads to POST /api/webhooks/leads/{propertyId}.',
  }),
};

type Catalogue = Record<string, Entry<never>>;

/** Builds a catalogue's rejections: the reason, and the arguments its words take. */
function rejecter<Args extends Record<string, unknown[]>>(catalogue: { [R in keyof Args]: Entry<Args[R]> }) {
  return <R extends keyof Args & string>(reason: R, ...args: Args[R]): Rejection<R> => {
    const { status, error, hint, hasReason } = catalogue[reason];
    const words = (w: Words<Args[R]>) => (typeof w === 'string' ? w : w(...args));
    return { status, code: reason, ...(hasReason === false ? {} : { reason }), error: words(error), hint: words(hint) };
  };
}

export const crawlRejection = rejecter(CRAWL_REJECTIONS);
export const leadRejection = rejecter(LEAD_REJECTIONS);
export const gatewayRejection = rejecter(GATEWAY_REJECTIONS);

/**
 * Each rejection's one status, whichever catalogue names it: a reason two catalogues share
 * (`property_not_found`, `body_too_large`) must mean the same status in both, or the gateway
 * does not start.
 */
function statusesOf(...catalogues: Catalogue[]): Record<string, number> {
  const statuses: Record<string, number> = {};
  for (const [reason, { status }] of catalogues.flatMap((catalogue) => Object.entries(catalogue))) {
    if ((statuses[reason] ?? status) !== status) throw new Error(`rejection ${reason} has two statuses`);
    statuses[reason] = status;
  }
  return statuses;
}

/** The gateway's envelope, `{error, hint, reason}` (and `details`), made as every HTTP edge makes its own. */
const sendEnvelope = errorEnvelope<string, Rejection>({
  statuses: statusesOf(CRAWL_REJECTIONS, LEAD_REJECTIONS, GATEWAY_REJECTIONS),
  body: (_code, error, rejection) => ({
    error,
    hint: rejection?.hint,
    ...(rejection?.reason ? { reason: rejection.reason } : {}),
    ...(rejection?.details ? { details: rejection.details } : {}),
  }),
});

/** Answers a rejection: `{error, hint, reason}`, with `details` when it has them. */
export function sendRejection(res: Response, rejection: Rejection): void {
  sendEnvelope(res, rejection.code, rejection.error, rejection);
}

/** A cap as stated to senders: exact, in the largest unit that divides it. */
function exactSize(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
