import type { Readable } from 'node:stream';

/**
 * The body's exact bytes, or 'too_large' as soon as it passes `maxBytes`: reading stops at the
 * cap whatever Content-Length claimed, so an oversized or lying sender never makes us buffer more.
 * The stream is left open past the cap (no `for await`, whose early exit destroys it), so the
 * caller can answer and then discard the rest (discardRestOfBody).
 */
export async function readCappedBody(body: Readable, maxBytes: number): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  const reader = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let size = 0;
  for (;;) {
    const next = await reader.next();
    if (next.done) break;
    size += next.value.length;
    if (size > maxBytes) return 'too_large';
    chunks.push(next.value);
  }
  return Buffer.concat(chunks, size);
}
