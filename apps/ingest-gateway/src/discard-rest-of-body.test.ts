import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discardRestOfBody } from './discard-rest-of-body.ts';

// A server that answers 413 after the first chunk, then discards the rest for `lingerMs`.
let server: http.Server | undefined;
afterEach(() => server?.close());

function rejectingServer(lingerMs: number, seen: { bytesAfterAnswer: number }) {
  const created = http.createServer(async (req, res) => {
    const reader = req[Symbol.asyncIterator]();
    await reader.next();
    discardRestOfBody(req, lingerMs);
    req.on('data', (chunk: Buffer) => {
      seen.bytesAfterAnswer += chunk.length;
    });
    res.writeHead(413, { 'content-type': 'application/json' }).end('{"reason":"body_too_large"}');
  });
  server = created;
  return new Promise<number>((resolve) =>
    created.listen(0, '127.0.0.1', () => resolve((created.address() as AddressInfo).port)),
  );
}

describe('discardRestOfBody', () => {
  it('reads the rest of a finished upload to its end, and the connection stays usable', async () => {
    const seen = { bytesAfterAnswer: 0 };
    const port = await rejectingServer(5000, seen);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        req.end(Buffer.alloc(2 * 1024 * 1024, 1));
      });
    const first = await send();
    await new Promise((r) => setTimeout(r, 100));
    const second = await send();
    agent.destroy();
    expect(first.status).toBe(413);
    expect(second).toEqual({ status: 413, reused: true });
    expect(seen.bytesAfterAnswer).toBeGreaterThan(0);
  });

  it('[CRAWL-25] drains a body whose reader took its own data listener off at the cap (the crawl body reader)', async () => {
    // The reader stops as the crawl ingest's does past its wire cap: its 'data' listener removed
    // while the stream flows. Before the fix the stream then stopped for good on the next tick,
    // and the sender, still writing, was cut off by the linger time instead of reading the 413.
    let ended = false;
    const created = http.createServer((req, res) => {
      const onFirst = () => {
        req.off('data', onFirst);
        discardRestOfBody(req, 5000);
        res.writeHead(413, { 'content-type': 'application/json' }).end('{"reason":"body_too_large"}');
      };
      req.on('data', onFirst);
      req.on('end', () => {
        ended = true;
      });
    });
    server = created;
    const port = await new Promise<number>((resolve) =>
      created.listen(0, '127.0.0.1', () => resolve((created.address() as AddressInfo).port)),
    );
    const started = Date.now();
    // Kept alive, as a log shipper's connection is (with Connection: close the server ends it at the answer).
    const agent = new http.Agent({ keepAlive: true });
    const outcome = await new Promise<{ status?: number; error?: string }>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
      });
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code }));
      req.end(Buffer.alloc(8 * 1024 * 1024, 1));
    });
    expect(outcome).toEqual({ status: 413 });
    await vi.waitFor(() => expect(ended).toBe(true), { timeout: 4000 });
    expect(Date.now() - started).toBeLessThan(5000);
    agent.destroy();
  });

  it('cuts off a body still arriving when the linger time is up', async () => {
    const port = await rejectingServer(200, { bytesAfterAnswer: 0 });
    const started = Date.now();
    const outcome = await new Promise<{ status?: number; error?: string }>((resolve) => {
      let status: number | undefined;
      const req = http.request({ host: '127.0.0.1', port, method: 'POST' }, (res) => {
        status = res.statusCode;
        res.resume();
      });
      const drip = setInterval(() => req.write(Buffer.alloc(1024, 1)), 10);
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearInterval(drip);
        resolve({ status, error: err.code });
      });
      req.on('close', () => {
        clearInterval(drip);
        resolve({ status });
      });
    });
    expect(outcome.status).toBe(413);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
