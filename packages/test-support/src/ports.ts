import { createServer } from 'node:net';

// Its own module, free of the test run's env (test-env.ts reads vitest's inject): the benchmarks
// start Redis nodes through redis-cluster.ts outside vitest.

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
