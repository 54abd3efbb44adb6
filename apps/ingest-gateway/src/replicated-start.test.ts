import { isolatedQueuePrefix, startApp } from '@vt/test-support';
import { expect, it } from 'vitest';

// REDIS_DURABILITY=replicated against the run's Redis, which has no replica: the gateway (the
// compiled app) starts, and says once in its log which masters lack replicas, before any sender
// meets a 503 not_replicated.

it('a gateway in the replicated mode names, at start, the Redis masters without enough replicas', async () => {
  const gateway = await startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', {
    REDIS_DURABILITY: 'replicated',
    REDIS_WAIT_REPLICAS: '1',
    QUEUE_PREFIX: isolatedQueuePrefix(),
  });
  try {
    const deadline = Date.now() + 10_000;
    const warning = () =>
      gateway
        .stdout()
        .split('\n')
        .filter((line) => line.includes('fewer replicas than REDIS_WAIT_REPLICAS'))
        .map((line) => JSON.parse(line) as { level: string; wanted: number; masters: { replicas: number }[] });
    while (warning().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(warning()).toEqual([
      expect.objectContaining({ level: 'warn', wanted: 1, masters: [expect.objectContaining({ replicas: 0 })] }),
    ]);
  } finally {
    gateway.child.kill('SIGTERM');
  }
  expect(await gateway.exited).toBe(0);
});
