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
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, text };
        // Let a reset that follows the answer show up before reporting.
        setTimeout(settle, 50);
      });
    });
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
