import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire: still compressed when the answer was. */
  bytes: Buffer;
}

/**
 * One request over a real loopback connection, answered with the body's bytes as sent: supertest
 * (superagent) would decompress them, and a compression test has to see them compressed.
 */
export async function rawRequest(
  app: Express,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<RawAnswer>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
