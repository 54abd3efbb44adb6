import { freePort, isolatedQueuePrefix, runScript, scratchDatabase, startApp, waitForOk } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';

// Every app as a real process: it validates config at start, answers /healthz, /readyz and
// /metrics against the real Postgres and Redis, logs JSON, and exits cleanly on SIGTERM.

// The notifier sweeps every due email of its database and queue: it gets its own, so it never
// takes another file's emails.
const notifierDb = await scratchDatabase('lifecycle_notifier');
afterAll(() => notifierDb.drop());

const APPS: { app: string; portVar: string; env?: Record<string, string>; checks?: Record<string, string> }[] = [
  // The gateway also checks the queue shard count it enqueues under (queueLayoutGate).
  { app: 'ingest-gateway', portVar: 'INGEST_GATEWAY_PORT', checks: { 'queue-layout': 'ok' } },
  { app: 'read-api', portVar: 'READ_API_PORT' },
  { app: 'console', portVar: 'CONSOLE_PORT' },
  { app: 'crawl-worker', portVar: 'CRAWL_WORKER_METRICS_PORT' },
  { app: 'lead-worker', portVar: 'LEAD_WORKER_METRICS_PORT' },
  { app: 'answer-collector', portVar: 'ANSWER_COLLECTOR_METRICS_PORT' },
  {
    app: 'notifier',
    portVar: 'NOTIFIER_PORT',
    env: { DATABASE_URL: notifierDb.url, QUEUE_PREFIX: isolatedQueuePrefix() },
  },
];

describe.each(APPS)('$app process', ({ app, portVar, env, checks }) => {
  it('answers /healthz, /readyz (Postgres and Redis up) and /metrics, then exits 0 on SIGTERM', async () => {
    // Port 0: the app binds a port of its own choosing and logs it; startApp waits for /readyz.
    const proc = await startApp(`apps/${app}/src/main.ts`, portVar, env);
    const { port } = proc;
    try {
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok', ...checks } });
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(await metrics.text()).toContain(`vt_process_cpu_user_seconds_total{app="${app}"}`);
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toBe(0);
    const lines = proc
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { app: string; msg: string; level: string });
    expect(lines.every((l) => l.app === app)).toBe(true);
    expect(lines.map((l) => l.msg)).toContain('shut down cleanly');
  });

  it('stops at start with a message naming a bad variable', async () => {
    const proc = runScript(`apps/${app}/src/main.ts`, [], { [portVar]: 'not-a-port', DATABASE_POOL_MAX: '0' });
    expect(await proc.exited).toBe(78);
    expect(proc.stderr()).toContain(`${app}: invalid configuration`);
    expect(proc.stderr()).toContain(portVar);
    expect(proc.stderr()).toContain('DATABASE_POOL_MAX');
  });
});

describe('readiness', () => {
  it('answers 503 naming Redis when Redis does not answer', async () => {
    const port = await freePort();
    const deadRedis = await freePort();
    const proc = runScript('apps/read-api/src/main.ts', [], {
      READ_API_PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${deadRedis}`,
    });
    try {
      await waitForOk(`http://127.0.0.1:${port}/healthz`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'not_ready', checks: { postgres: 'ok', redis: 'unavailable' } });
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toBe(0);
  });
});
