import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

/**
 * Closed-loop load from this process: `concurrency` keep-alive connections, each sending its next
 * request when the previous answer is read, for `seconds`. `next()` builds each request.
 */
export async function runLoad(
  target: { port: number; path: string; method: string },
  concurrency: number,
  seconds: number,
  next: () => { headers: Record<string, string>; body?: Buffer },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const { headers, body } = next();
      const t0 = performance.now();
      const req = request(
        { host: '127.0.0.1', port: target.port, path: target.path, method: target.method, agent, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    statuses,
  };
}
