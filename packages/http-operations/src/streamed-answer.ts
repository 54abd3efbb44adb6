import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';

/**
 * A success that is not one JSON value but a body written as it is produced (a CSV export of a
 * year of rows): only an operation whose shape declares `streams` (its media type) may answer one.
 * No response schema parses it: what the body may carry is the producer's to decide.
 */
export class StreamedAnswer {
  constructor(
    /** Read with backpressure: the next chunk is asked for only once the client took the last. */
    readonly body: Readable,
    /** Headers beside the media type, such as `Content-Disposition`. */
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * Writes a streamed answer: the status and headers, then the body as the client reads it. HEAD
 * gets the headers and the body is never read.
 *
 * Once the first byte is out the status cannot change, so a body that fails later ends the
 * response without its terminating chunk (the connection is cut): clients and browsers report an
 * incomplete download instead of keeping a file that looks whole. The failure is then rethrown
 * for the app's error handler to log. A client that goes away is not a failure: the body is
 * destroyed (so its producer stops reading) and nothing is thrown.
 */
export async function sendStreamedAnswer(
  req: Request,
  res: Response,
  status: number,
  mediaType: string,
  answer: unknown,
): Promise<void> {
  if (!(answer instanceof StreamedAnswer)) throw new Error(`a streamed operation answered ${typeof answer}`);
  res.status(status).set({ ...answer.headers, 'Content-Type': mediaType });
  if (req.method === 'HEAD') {
    answer.body.destroy();
    res.end();
    return;
  }
  let bodyFailure: unknown;
  answer.body.once('error', (err) => {
    bodyFailure = err;
  });
  try {
    await pipeline(answer.body, res);
  } catch {
    if (bodyFailure === undefined) return; // the client went away
    throw bodyFailure;
  }
}
