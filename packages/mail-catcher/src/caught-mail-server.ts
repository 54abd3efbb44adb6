import { createServer } from 'node:http';
import type { MailCatcher } from './mail-catcher.ts';

export interface CaughtMailServer {
  /** `http://127.0.0.1:<port>`: the console's MAIL_CATCHER_URL. */
  url: string;
  close(): Promise<void>;
}

/**
 * The catcher's messages over HTTP, read-only, for the console in development (MAIL_CATCHER_URL):
 * `GET /messages` (every message, newest first) and `GET /messages?messageId=<id>` (the copies of
 * one email). JSON, loopback only.
 */
export function serveCaughtMail(catcher: MailCatcher, options: { port?: number; host?: string } = {}) {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://catcher.invalid');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' || url.pathname !== '/messages') return send(404, { error: 'not_found' });
    const messageId = url.searchParams.get('messageId');
    const messages = catcher
      .messages()
      .filter((m) => messageId === null || m.messageId === messageId)
      .reverse();
    send(200, { messages });
  });
  return new Promise<CaughtMailServer>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
