import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP receiver on loopback for the tests: it records every request it gets and answers
// what the test scripts, one answer per request in order (the last one repeats).

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Resolves once `count` requests have arrived (throws after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedRequest[]>;
  close: () => Promise<void>;
}

export async function startWebhookReceiver(script: ScriptedAnswer[] = [{ status: 200 }]): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = script[Math.min(received.length, script.length) - 1] ?? { status: 200 };
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} of ${count} requests`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
