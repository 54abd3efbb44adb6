import http from 'node:http';

export interface WholeUploadOutcome {
  status: number;
  text: string;
  /** A write or connection error the sender saw, after or instead of the answer. */
  senderError?: string;
}

/**
 * Sends the whole body as fast as the socket takes it, as a log shipper or webhook sender does,
 * without waiting to hear an early answer, and reports what the sender saw: the answer, and any
 * write or connection error (EPIPE, ECONNRESET) it got on the way.
 */
export function uploadWholeBody(
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders,
  body: Buffer,
  pieceBytes = 64 * 1024,
): Promise<WholeUploadOutcome> {
  return new Promise((resolve) => {
    let answer: { status: number; text: string } | undefined;
    let senderError: string | undefined;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      resolve({ status: answer?.status ?? 0, text: answer?.text ?? '', senderError });
    };
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) =>
      readAnswer(res, (read) => {
        answer = read;
        // Let a reset that follows the answer show up before reporting.
        setTimeout(settle, 50);
      }),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      senderError = err.code ?? err.message;
      setTimeout(settle, 50);
    });
    let offset = 0;
    const pump = () => {
      while (offset < body.length) {
        const more = req.write(body.subarray(offset, offset + pieceBytes));
        offset += pieceBytes;
        if (!more) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/**
 * Posts `chunks` one write at a time (chunked transfer, no Content-Length unless given), pausing
 * `pauseMs` between writes so the server sees them apart, and resolves with the answer. Write
 * errors after the answer (the server closed an oversized upload) are expected and ignored. With
 * `end: false` the body is never finished: the answer must come at the cap. (A sender still
 * writing when the gateway answers an oversized upload and closes can have its connection reset
 * before it reads the answer.)
 */
export function rawPost(
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders,
  chunks: Buffer[],
  { pauseMs = 5, end = true }: { pauseMs?: number; end?: boolean } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) =>
      readAnswer(res, (read) => {
        answered = true;
        if (!end) req.destroy();
        resolve(read);
      }),
    );
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    void (async () => {
      for (const chunk of chunks) {
        if (req.destroyed || answered) return;
        req.write(chunk);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
      if (end) req.end();
    })();
  });
}

/** Reads the whole answer as text, then hands it over with its status. */
function readAnswer(res: http.IncomingMessage, done: (answer: { status: number; text: string }) => void): void {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
  });
  res.on('end', () => done({ status: res.statusCode ?? 0, text }));
}

/** `bytes` cut into pieces of `size` bytes (the last may be shorter). */
export function split(bytes: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return parts;
}
