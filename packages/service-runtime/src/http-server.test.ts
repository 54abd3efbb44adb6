import { connect } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_TIMEOUTS, type RunningServer, startHttpServer } from './http-server.ts';

// Slow and oversized clients against the server every app runs on, with real sockets. The limits
// are shortened here so the tests run in seconds; the defaults are asserted on their own.

const QUICK = { headersMs: 800, requestMs: 1600, keepAliveMs: 500, checkEveryMs: 100 };
let server: RunningServer;

beforeAll(async () => {
  const app = express();
  app.get('/ok', (_req, res) => void res.json({ ok: true }));
  app.post('/echo', express.text({ type: '*/*' }), (req, res) => void res.json({ length: String(req.body).length }));
  server = await startHttpServer(app, 0, '127.0.0.1', QUICK);
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens a socket, writes `head` then each of `drip` with `everyMs` between them, and resolves with
 * what it read and when the server closed it (ms from the start), or after `giveUpMs`.
 */
function client(head: string, drip: string[], everyMs: number, giveUpMs = 5000) {
  return new Promise<{ read: string; closedAfterMs: number | null }>((resolve) => {
    const started = Date.now();
    const socket = connect(server.port, '127.0.0.1');
    let read = '';
    let closed = false;
    socket.on('data', (d) => {
      read += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      resolve({ read, closedAfterMs: Date.now() - started });
    });
    socket.write(head);
    void (async () => {
      for (const piece of drip) {
        await sleep(everyMs);
        if (closed) return;
        socket.write(piece);
      }
    })();
    setTimeout(() => {
      if (closed) return;
      socket.destroy();
      resolve({ read, closedAfterMs: null });
    }, giveUpMs).unref();
  });
}

const stillServes = async () => (await fetch(`http://127.0.0.1:${server.port}/ok`)).status;

describe('the HTTP server every app runs on', () => {
  it('states its limits: 20 s for a request head, 300 s for a whole request, 65 s idle keep-alive', () => {
    expect(HTTP_TIMEOUTS).toEqual({ headersMs: 20_000, requestMs: 300_000, keepAliveMs: 65_000, checkEveryMs: 1_000 });
  });

  it('cuts a slow-loris client that dribbles its headers, with a 408, and serves others meanwhile', async () => {
    const drip = Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`);
    const slow = client('GET /ok HTTP/1.1\r\nHost: t\r\n', drip, 100);
    await sleep(200);
    expect(await stillServes()).toBe(200);
    const { read, closedAfterMs } = await slow;
    expect(read).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(QUICK.headersMs + 2 * QUICK.checkEveryMs + 500);
  });

  it('cuts a client that sends its headers and then dribbles the body, at the request limit', async () => {
    const drip = Array.from({ length: 60 }, () => 'x');
    const slow = client(
      'POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n',
      drip,
      50,
    );
    const { read, closedAfterMs } = await slow;
    expect(read).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs!).toBeGreaterThanOrEqual(QUICK.headersMs);
    expect(closedAfterMs!).toBeLessThan(QUICK.requestMs + 2 * QUICK.checkEveryMs + 500);
    expect(await stillServes()).toBe(200);
  });

  it('answers 431 to a head over 16 KiB and keeps serving; a thousand repeated headers are no crash', async () => {
    const big = await client(`GET /ok HTTP/1.1\r\nHost: t\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`, [], 0, 2000);
    expect(big.read).toMatch(/^HTTP\/1\.1 431 /);
    const repeated = Array.from({ length: 1000 }, (_, i) => `X-R: ${i}\r\n`).join('');
    const many = await client(`GET /ok HTTP/1.1\r\nHost: t\r\n${repeated}Connection: close\r\n\r\n`, [], 0, 2000);
    expect(many.read).toMatch(/^HTTP\/1\.1 (200|431) /);
    expect(await stillServes()).toBe(200);
  });

  it('closes an idle kept-alive connection after the keep-alive limit', async () => {
    const idle = await client('GET /ok HTTP/1.1\r\nHost: t\r\n\r\n', [], 0, 4900);
    expect(idle.read).toMatch(/^HTTP\/1\.1 200 /);
    expect(idle.closedAfterMs).not.toBeNull();
    expect(idle.closedAfterMs!).toBeGreaterThanOrEqual(QUICK.keepAliveMs);
    // Node's own default (5 s) would close it too: under that, the limit set is the one that acted,
    // with room for a loaded machine's late timers (1.7 s once failed with eight processes busy).
    expect(idle.closedAfterMs!).toBeLessThan(4000);
  });
});
