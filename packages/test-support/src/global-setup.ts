import { randomBytes } from 'node:crypto';
import { applyMigrations, dropDatabase, ensureDatabaseExists } from '@vt/db';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';

// Each test run gets its own database and its own Redis key prefix, so two runs (two developers,
// CI and a developer, two worktrees) never see each other's data.

const base = process.env.TEST_DATABASE_BASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = new URL(base);
  url.pathname = `/vt_test_${runId}`;
  const databaseUrl = url.toString();
  const queuePrefix = `{vt-test-${runId}}`;

  await ensureDatabaseExists(databaseUrl);
  await applyMigrations(databaseUrl);

  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', redisUrl);
  project.provide('queuePrefix', queuePrefix);

  return async () => {
    await dropDatabase(databaseUrl);
    const redis = new Redis(redisUrl);
    try {
      let cursor = '0';
      do {
        // `{vt-test-<run>` also matches the per-file prefixes of isolatedQueuePrefix().
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix.slice(0, -1)}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    queuePrefix: string;
  }
}
