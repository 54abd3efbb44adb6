import type { AiPlatformId } from '@vt/attribution';

/** What every platform answers: the answer as markdown and the URLs it cited. */
export interface CollectedAnswer {
  markdown: string;
  citations: string[];
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

/** How long one platform call may take, whole. */
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * POSTs JSON to a platform and parses its JSON answer, turning every failure into a PlatformError:
 * 429 and 5xx and network errors retryable, other statuses not. The error never carries the
 * request (it holds the API key) or the answer body beyond its first 300 characters.
 */
export async function postJson(
  platform: AiPlatformId,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
        : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new PlatformError(platform, `request failed: ${(err as Error).message}`, true);
  }
  const text = await res.text();
  if (!res.ok) {
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new PlatformError(
      platform,
      `HTTP ${res.status}: ${text.slice(0, 300)}`,
      res.status === 429 || res.status >= 500,
      res.status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new PlatformError(platform, `the answer is not JSON: ${text.slice(0, 300)}`, true, res.status);
  }
}

/** A platform's answer that does not have the documented shape: not worth retrying. */
export const unexpectedShape = (platform: AiPlatformId, what: string) =>
  new PlatformError(platform, `unexpected answer: ${what}`, false);
