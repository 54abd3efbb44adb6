import { constants } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';

/** Below this many bytes an answer goes as it is: the coding's header and CPU would cost more than they save. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses JSON answers for clients that ask (`Accept-Encoding`): br or gzip (or deflate), the
 * client's preference first, once the answer reaches COMPRESSION_THRESHOLD_BYTES; `Vary:
 * Accept-Encoding` on every JSON answer. A /v1 page of 100 rows is about 80 KB of JSON, which
 * gzip takes to about a tenth (bench:read prints the bytes and the CPU per page).
 *
 * Only JSON: a CSV export is written row by row as the client reads it, and a compressor would
 * hold its rows back until a block fills. Brotli runs at quality 4, not zlib's default 11, which
 * costs tens of milliseconds of CPU per page for a few per cent fewer bytes than gzip.
 */
export function compressedAnswers(): RequestHandler {
  return compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    filter: (_req, res) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(String(res.getHeader('Content-Type') ?? '')),
  });
}
