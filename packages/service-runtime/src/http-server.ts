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
    const server: Server = app.listen(port, host, (err?: Error) => {
      if (err) return reject(err);
      const address = server.address() as AddressInfo;
      resolve({
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Keep-alive connections with no request in flight would hold close() open.
            server.closeIdleConnections();
          }),
      });
    });
    server.on('error', reject);
  });
}
