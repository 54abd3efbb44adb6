import type { AiPlatformId } from '@vt/attribution';

/** What every platform answers: the answer as markdown and the URLs it cited. */
export interface CollectedAnswer {
  markdown: string;
  citations: string[];
  /**
   * Set when the platform stopped before the end of its answer (its output token limit): the text
   * and citations are what it did answer, kept because asking again costs as much and stops at the
   * same limit. Unset for a whole answer.
   */
  truncated?: string;
}

/** Where the answer's readers are: passed to a platform's search location and language where it has them. */
export interface AnswerLocation {
  /** ISO 3166-1 alpha-2, upper case (`US`, `DE`). */
  country?: string;
  /** A BCP 47 language tag (`en`, `de-DE`). */
  language?: string;
}

export interface AskOptions {
  signal?: AbortSignal;
  location?: AnswerLocation;
}

/** One AI platform's API, behind the one call the collector makes. */
export interface PlatformClient {
  platform: AiPlatformId;
  /** The model asked, as configured (reported in logs and metrics). */
  model: string;
  ask(prompt: string, options?: AskOptions): Promise<CollectedAnswer>;
}

/**
 * A platform refused or failed. `retryable` for 429, 5xx and network failures (the job is retried
 * with backoff and jitter); not for 4xx answers, which would fail the same way again.
 */
export class PlatformError extends Error {
  constructor(
    readonly platform: AiPlatformId,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** Seconds the platform asked to wait (Retry-After), if it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** How long one platform call may take, whole (each SDK's `timeout`). */
export const REQUEST_TIMEOUT_MS = 120_000;

/** The most of a platform's error text a PlatformError carries. */
const MAX_DETAIL_CHARS = 300;

/**
 * The SDK options every vendor client shares: no retries of its own (BullMQ's backoff retries, and
 * reads Retry-After from the PlatformError), and one timeout.
 */
export const SDK_CALL_OPTIONS = { maxRetries: 0, timeout: REQUEST_TIMEOUT_MS } as const;

/**
 * Seconds a platform asked to wait: `retry-after-ms` (OpenAI's and Anthropic's SDKs read it), then
 * `retry-after` as seconds or as an HTTP date. Undefined when it did not say, or said nonsense.
 */
export function retryAfterSecondsOf(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 1000);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) {
    const seconds = Number(value);
    return seconds > 0 ? Math.ceil(seconds) : undefined;
  }
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const seconds = Math.ceil((at - now) / 1000);
  return seconds > 0 ? seconds : undefined;
}

/**
 * A message safe to log and store: the API key (and any `sk-…` key a vendor echoes, masked or not)
 * cut out, at most 300 characters of the vendor's text.
 */
export function safeDetail(text: string, apiKey: string): string {
  const withoutKey = (apiKey ? text.split(apiKey).join('[key]') : text).replace(/\bsk-[\w*-]{3,}/g, '[key]');
  return withoutKey.length > MAX_DETAIL_CHARS ? `${withoutKey.slice(0, MAX_DETAIL_CHARS)}…` : withoutKey;
}

/** What an SDK's error says about the HTTP exchange, whatever the SDK. */
export interface HttpFailure {
  /** The HTTP status; undefined when no answer came (connection refused, reset, timeout, abort). */
  status?: number;
  headers?: Headers;
  message: string;
  /** Seconds to wait a vendor put in the body rather than a header (Gemini's RetryInfo). */
  retryAfterSeconds?: number;
}

/** The PlatformError for a failed exchange: 429, 5xx and no answer at all retryable, the rest not. */
export function platformErrorOf(platform: AiPlatformId, failure: HttpFailure, apiKey: string): PlatformError {
  const { status } = failure;
  // The SDKs' messages start with the status already ("429 Rate limit reached …").
  const message = status === undefined ? failure.message : failure.message.replace(new RegExp(`^${status}\\s+`), '');
  const detail = safeDetail(message, apiKey);
  if (status === undefined) return new PlatformError(platform, `request failed: ${detail}`, true);
  return new PlatformError(
    platform,
    `HTTP ${status}: ${detail}`,
    status === 429 || status >= 500,
    status,
    retryAfterSecondsOf(failure.headers) ?? failure.retryAfterSeconds,
  );
}

/** A platform's answer that does not have the documented shape: not worth retrying. */
export const unexpectedShape = (platform: AiPlatformId, what: string) =>
  new PlatformError(platform, `unexpected answer: ${what}`, false);

/**
 * The platform declined to answer (a safety filter, a refusal). Not retried: the same question
 * gets the same refusal, and each attempt is paid for.
 */
export const refusedAnswer = (platform: AiPlatformId, why: string) =>
  new PlatformError(platform, `no answer: ${why}`, false);

/** Each URL once, in the order first cited. */
export const uniqueUrls = (urls: Iterable<string>): string[] => [...new Set(urls)];
