import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { applyMigrations, createDatabaseFromTemplate, dropDatabase, ensureDatabaseExists } from '@vt/db';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { ROOT } from './paths.ts';

// Each test run gets its own database and its own Redis key prefix, so two runs (two developers,
// CI and a developer, two worktrees) never see each other's data. What every suite would otherwise
// repeat is done here once per run:
// - the migrations run once, into a template; the run's database and every scratch database are
//   copies of it (a copy costs ~40 ms, a migration ~250 ms and more on a loaded machine);
// - the apps are compiled once (`pnpm build`'s esbuild bundles, a second or two), and the suites
//   run them with plain node, as production does, instead of compiling TypeScript in each of
//   the ~100 processes they start.

const base = process.env.TEST_DATABASE_BASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const databaseNamed = (name: string) => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

async function buildApps(): Promise<void> {
  await promisify(execFile)(process.execPath, ['scripts/build-apps.mjs'], { cwd: ROOT, timeout: 120_000 });
}

async function migratedTemplate(templateUrl: string): Promise<void> {
  await ensureDatabaseExists(templateUrl);
  await applyMigrations(templateUrl);
}

export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = databaseNamed(`vt_test_${runId}`);
  const templateDatabaseUrl = databaseNamed(`vt_test_${runId}_template`);
  const queuePrefix = `{vt-test-${runId}}`;
  const scratchDir = mkdtempSync(join(tmpdir(), `vt-test-${runId}-`));

  await Promise.all([migratedTemplate(templateDatabaseUrl), buildApps()]);
  await createDatabaseFromTemplate(databaseUrl, templateDatabaseUrl);

  project.provide('databaseUrl', databaseUrl);
  project.provide('templateDatabaseUrl', templateDatabaseUrl);
  project.provide('redisUrl', redisUrl);
  project.provide('queuePrefix', queuePrefix);
  project.provide('scratchDir', scratchDir);

  return async () => {
    await dropDatabase(databaseUrl);
    await dropDatabase(templateDatabaseUrl);
    rmSync(scratchDir, { recursive: true, force: true });
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
    /** The migrated database every database of the run is copied from; nobody connects to it. */
    templateDatabaseUrl: string;
    redisUrl: string;
    queuePrefix: string;
    /** A directory of this run's own, removed at its end: what files of the run build once and share. */
    scratchDir: string;
  }
}
