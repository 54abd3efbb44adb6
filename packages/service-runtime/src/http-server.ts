import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close: () => Promise<void>;
}

export function startHttpServer(app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let closing = false;
    const server: Server = app.listen(port, host, (err?: Error) => {
      if (err) return reject(err);
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
    server.prependListener('request', (_req, res) => {
      if (closing) res.setHeader('connection', 'close');
    });
    server.on('error', reject);
  });
}
