import type { Request, Response } from 'express';
import type { CachedAnswer, ContentCoding } from './answer-cache.ts';

/** Below this many bytes a /v1 answer goes uncompressed: a coding's framing and CPU would cost more than it saves. */
export const COMPRESS_FROM_BYTES = 1024;

/** A /v1 success as it will be sent: 304 when the client holds it already, else the 200 in its coding. */
export type PreparedAnswer =
  | { notModified: true; answer: CachedAnswer }
  | { notModified: false; answer: CachedAnswer; coding: ContentCoding | 'identity'; bytes: Buffer };

/**
 * Whether `If-None-Match` names this answer's ETag, compared weakly (RFC 9110 §13.1.2: `W/` aside,
 * the opaque parts are equal), as a GET's precondition is. `*` is not honoured: only a validator
 * this API handed out can turn an answer into a 304; a client that never saw one gets the full
 * answer (the service-wide rule of service-runtime's answerWithoutValidators).
 */
export function clientHolds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

/**
 * Decides how to send an answer: 304 for a client that holds it, else the coding the client
 * prefers among br and gzip once the body reaches COMPRESS_FROM_BYTES (the compressed bytes come
 * from the answer cache, made once per entry). HEAD negotiates as its GET would, so it reports
 * the GET's Content-Encoding and Content-Length (READ-2).
 */
export async function prepareAnswer(req: Request, answer: CachedAnswer): Promise<PreparedAnswer> {
  if (clientHolds(req.headers['if-none-match'], answer.etag)) return { notModified: true, answer };
  const preferred = answer.body.length >= COMPRESS_FROM_BYTES ? req.acceptsEncodings('br', 'gzip', 'identity') : false;
  if (preferred === 'br' || preferred === 'gzip') {
    return { notModified: false, answer, coding: preferred, bytes: await answer.encoded(preferred) };
  }
  return { notModified: false, answer, coding: 'identity', bytes: answer.body };
}

/**
 * Writes a prepared answer. Both carry the ETag, `Cache-Control: private, no-cache` (a browser or
 * client may keep it, but must revalidate it, and no shared cache may keep an answer read with a
 * key) and `Vary: Accept-Encoding`; the 304 has no body.
 */
export function sendPreparedAnswer(res: Response, prepared: PreparedAnswer): void {
  res.set({ ETag: prepared.answer.etag, 'Cache-Control': 'private, no-cache' }).vary('Accept-Encoding');
  if (prepared.notModified) return void res.status(304).end();
  if (prepared.coding !== 'identity') res.set('Content-Encoding', prepared.coding);
  res.status(200).type('application/json; charset=utf-8').send(prepared.bytes);
}
