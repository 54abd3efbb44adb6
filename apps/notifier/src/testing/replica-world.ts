import { type MailCatcherOptions, startMailCatcher } from '@vt/mail-catcher';
import { createQueue, type JobContract } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, type RunningApp, scratchDatabase, startApp, testEnv } from '@vt/test-support';
import { afterAll, expect } from 'vitest';

/**
 * What a test of notifier replicas stands on: a database of its own (a notifier sweeps and
 * evaluates its whole database), a queue prefix, a real SMTP server, the queue the test adds jobs
 * to, and `startReplicas` for the compiled app's processes. Everything is stopped after the file,
 * and every replica must have exited 0 on SIGTERM.
 */
export async function notifierReplicaWorld<C extends JobContract>(
  name: string,
  contract: C,
  catcherOptions?: MailCatcherOptions,
) {
  const scratch = await scratchDatabase(name);
  const prefix = isolatedQueuePrefix();
  const catcher = await startMailCatcher(catcherOptions);
  const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
  const queue = createQueue(contract, redis, prefix);
  const replicas: RunningApp[] = [];

  afterAll(async () => {
    for (const replica of replicas) replica.child.kill('SIGTERM');
    const exits = await Promise.all(replicas.map((replica) => replica.exited));
    await queue.obliterate({ force: true });
    await queue.close();
    await closeRedisConnection(redis);
    await catcher.close();
    await scratch.drop();
    expect(exits).toEqual(replicas.map(() => 0));
  });

  /** `count` notifier processes on the world's database, queues and SMTP server, with `env` on top. */
  async function startReplicas(count: number, env: Record<string, string>): Promise<RunningApp[]> {
    const base = { DATABASE_URL: scratch.url, QUEUE_PREFIX: prefix, SMTP_URL: catcher.url, ...env };
    const started = await Promise.all(
      Array.from({ length: count }, () => startApp('apps/notifier/src/main.ts', 'NOTIFIER_PORT', base)),
    );
    replicas.push(...started);
    return started;
  }

  return { db: scratch.db, prefix, catcher, queue, replicas, startReplicas };
}
