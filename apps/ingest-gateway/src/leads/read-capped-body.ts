import type { Readable } from 'node:stream';

/**
 * The body's exact bytes, or 'too_large' as soon as it passes `maxBytes`: reading stops at the
 * cap whatever Content-Length claimed, so an oversized or lying sender never makes us buffer more.
 * Past the cap the stream is paused and left open (the caller answers, then discards the rest
 * with discardRestOfBody). Plain 'data'/'end' listeners rather than an async iterator: on the
 * webhook's hot path the iterator's machinery cost more than the read itself.
 */
export function readCappedBody(body: Readable, maxBytes: number): Promise<Buffer | 'too_large'> {
  // A sender may hang up while the handler still awaits something else (a property lookup): the
  // stream is then already closed, and listeners added now would never hear a thing.
  if (body.destroyed || body.readableEnded) {
    return Promise.reject(body.errored ?? new Error('the body was cut off before it was read'));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stopListening = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stopListening();
      body.pause();
      resolve('too_large');
    };
    const onEnd = () => {
      stopListening();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stopListening();
      reject(err);
    };
    // A sender that hangs up mid-body ends the stream with 'close' and no 'end'.
    const onClose = () => onError(new Error('the body was cut off before its end'));
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}
