import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close: () => Promise<void>;
}

/**
 * How long a client may take, set on every app's server (docs/operators.md, "Limits on slow and
 * oversized requests" states them):
 * - `headersMs`: the whole request head. A slow-loris client that dribbles its headers is
 *   answered 408 and cut off after this, whatever it still sends.
 * - `requestMs`: the whole request, body included: a 32 MiB crawl batch at 1 Mbit/s takes about
 *   270 s, so 300 s (Node's default) still fits a slow shipper; a body dribbled slower is cut.
 * - `keepAliveMs`: an idle kept-alive connection is closed after this: 65 s, longer than the idle
 *   timeout of the proxies and load balancers that sit in front of these apps (60 s for nginx's
 *   upstream keep-alive and AWS's load balancers), so the server never closes a connection just as
 *   a proxy or a log shipper sends the next request on it (which reaches the sender as a reset or
 *   a 502). Node's own 5 s lost that race in bench:ingest on a loaded machine.
 * - `checkEveryMs`: how often the server looks for connections past their time (Node checks
 *   every 30 s by default, which would let a slow-loris head live 30 s past its time).
 * Heads over 16 KiB (Node's `maxHeaderSize`) are answered 431.
 */
export const HTTP_TIMEOUTS = {
  headersMs: 20_000,
  requestMs: 300_000,
  keepAliveMs: 65_000,
  checkEveryMs: 1_000,
};

export function startHttpServer(
  app: Express,
  port: number,
  host = '0.0.0.0',
  timeouts = HTTP_TIMEOUTS,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let closing = false;
    const server: Server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: timeouts.checkEveryMs,
      },
      app,
    );
    server.prependListener('request', (_req, res) => {
      if (closing) res.setHeader('connection', 'close');
    });
    server.on('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      resolve({
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            closing = true;
            // Keep-alive connections would hold close() open for as long as their clients keep
            // sending on them (a busy log shipper never stops): idle ones are closed now and as
            // they fall idle, and every answer from here on says Connection: close.
            const sweep = setInterval(() => server.closeIdleConnections(), 50);
            server.close(() => {
              clearInterval(sweep);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
