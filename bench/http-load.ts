import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

export interface LoadTarget {
  port: number;
  path: string;
  method: string;
}

/** Builds each request of a load run. */
export type NextRequest = () => { headers: Record<string, string>; body?: Buffer };

interface RawLoad {
  latencies: number[];
  statuses: Record<number, number>;
  seconds: number;
}

/**
 * Closed-loop load from this process: `concurrency` keep-alive connections, each sending its next
 * request when the previous answer is read, for `seconds`. `next()` builds each request.
 */
export async function runLoad(
  target: LoadTarget,
  concurrency: number,
  seconds: number,
  next: NextRequest,
): Promise<LoadResult> {
  return summarise([await load(target, concurrency, seconds, next)]);
}

/**
 * Loads several targets in turn, `roundSeconds` each, until each has had `seconds`: a machine
 * whose speed drifts during the run (other tenants, clock changes) slows every target alike, so
 * their ratio holds where back-to-back runs would not. One result per target, in order.
 */
export async function runInterleaved(
  targets: { target: LoadTarget; next: NextRequest }[],
  concurrency: number,
  seconds: number,
  roundSeconds = 2,
): Promise<LoadResult[]> {
  const runs: RawLoad[][] = targets.map(() => []);
  for (let done = 0; done < seconds; done += roundSeconds) {
    const slice = Math.min(roundSeconds, seconds - done);
    for (const [i, { target, next }] of targets.entries()) runs[i]!.push(await load(target, concurrency, slice, next));
  }
  return runs.map(summarise);
}

async function load(target: LoadTarget, concurrency: number, seconds: number, next: NextRequest): Promise<RawLoad> {
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
  return { latencies, statuses, seconds: elapsed };
}

function summarise(runs: RawLoad[]): LoadResult {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const run of runs)
    for (const [status, count] of Object.entries(run.statuses))
      statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count;
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    statuses,
  };
}
