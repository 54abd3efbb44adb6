import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, type TargetPolicy, TargetRefusedError } from './target-guard.ts';
import type { WebhookRequest } from './webhook-request.ts';

// One POST to a receiver, and nothing more: no redirect is followed (node's client follows none),
// the connection goes only to addresses the guard accepted, the whole exchange has one deadline,
// and at most a few kilobytes of the answer are read.

export interface PostOptions {
  policy: TargetPolicy;
  /** The deadline of the whole attempt: connect, send, answer. */
  timeoutMs: number;
}

/** The most of an answer read; the log keeps less (RESPONSE_SNIPPET_MAX). */
const MAX_RESPONSE_BYTES = 4096;
export const RESPONSE_SNIPPET_MAX = 256;

/** Why no answer came, as the delivery log says it. */
export type PostErrorClass =
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns_failure'
  | 'tls_error'
  | 'target_refused'
  | 'network_error';

export type PostResult =
  | { kind: 'answered'; statusCode: number; retryAfter: string | undefined; snippet: string; durationMs: number }
  | { kind: 'failed'; errorClass: PostErrorClass; durationMs: number };

/** Node's error codes, as the classes the log shows (never the error's message, which may name addresses). */
export function errorClassOf(err: unknown): PostErrorClass {
  if (err instanceof TargetRefusedError) return 'target_refused';
  const code = String((err as { code?: unknown })?.code ?? '');
  if (code === 'ETIMEDOUT' || code === 'ETIMEOUT' || code === 'WEBHOOK_DEADLINE') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'connection_reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'ENODATA') return 'dns_failure';
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) return 'tls_error';
  return 'network_error';
}

/** Control characters, as a log line must not hold them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/** The first characters of an answer, as text fit for a log line: control characters replaced. */
function snippetOf(bytes: Buffer): string {
  return bytes.toString('utf8').replace(CONTROL_CHARACTERS, ' ').trim().slice(0, RESPONSE_SNIPPET_MAX);
}

/** POSTs `req` to `url` (already judged by `checkUrlShape`), within the deadline. Never throws. */
export function postWebhook(url: URL, req: WebhookRequest, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    let client: ReturnType<typeof send> | undefined;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      client?.destroy();
      resolve(result);
    };
    const fail = (err: unknown) => finish({ kind: 'failed', errorClass: errorClassOf(err), durationMs: elapsed() });
    const deadline = setTimeout(() => fail({ code: 'WEBHOOK_DEADLINE' }), options.timeoutMs);
    try {
      client = send(url, {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        lookup: guardedLookup(options.policy),
        // A connection of its own: nothing pooled is reused past the guard's lookup.
        agent: false,
      });
    } catch (err) {
      // Refused before any connection (a header node will not send, say).
      return fail(err);
    }
    client.on('error', fail);
    client.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const answered = () =>
        finish({
          kind: 'answered',
          statusCode: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          snippet: snippetOf(Buffer.concat(chunks)),
          durationMs: elapsed(),
        });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        read += chunk.length;
        // Enough to show: the rest of a large answer is never read.
        if (read >= MAX_RESPONSE_BYTES) answered();
      });
      res.on('end', answered);
      // The status is known: a connection cut while the body streams still answered.
      res.on('error', answered);
      res.on('aborted', answered);
    });
    client.end(req.body);
  });
}
