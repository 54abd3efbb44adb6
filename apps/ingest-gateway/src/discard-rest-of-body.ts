import type { IncomingMessage } from 'node:http';

/** How long a rejected upload may keep arriving before its connection is cut. */
const LINGER_MS = 10_000;

/**
 * After an early answer (413) to a body that is still arriving: read and discard the rest, for at
 * most `lingerMs`, rather than close with bytes unread. A sender still uploading would otherwise
 * get a connection reset, or a write error, in place of the answer (nginx's "lingering close").
 * The bytes are dropped as they come, never buffered; a body still coming when the time is up is
 * cut off with its connection. A body read to its end leaves the connection usable.
 */
export function discardRestOfBody(req: IncomingMessage, lingerMs = LINGER_MS): void {
  if (req.readableEnded || req.destroyed) return;
  const cutOff = setTimeout(() => req.socket.destroy(), lingerMs);
  cutOff.unref();
  const stop = () => clearTimeout(cutOff);
  req.once('end', stop);
  req.once('close', stop);
  // A body read through an async iterator keeps a 'readable' listener, which stops it flowing.
  req.removeAllListeners('readable');
  // A 'data' listener, not resume() alone: removing the 'readable' listeners makes the stream
  // re-decide on the next tick whether it flows, and a stream already flowing whose reader has
  // taken its own 'data' listener off (the crawl body reader, at the cap) is then left with
  // flowing = null, read no further. The sender, still writing, was stalled until the linger time
  // cut its connection: a reset in place of the 413 (seen on a loaded machine).
  req.on('data', dropChunk);
  req.resume();
}

function dropChunk(): void {}
