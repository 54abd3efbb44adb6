import type { Readable } from 'node:stream';

/**
 * The body's exact bytes, or 'too_large' as soon as it passes `maxBytes`: reading stops at the
 * cap whatever Content-Length claimed, so an oversized or lying sender never makes us buffer more.
 */
export async function readCappedBody(body: Readable, maxBytes: number): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return 'too_large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
