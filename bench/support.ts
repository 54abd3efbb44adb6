import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyMigrations, createPrismaClient, dropDatabase, ensureDatabaseExists, type PrismaClient } from '@vt/db';
import { Redis } from 'ioredis';

// What every benchmark shares: a scratch database and Redis prefix of its own, the apps started
// as real processes, and the clean-up.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TSX = fileURLToPath(import.meta.resolve('tsx'));
/** An app's entry point, which the benchmarks run compiled, as production does. */
const APP_SOURCE = /^apps\/([a-z-]+)\/src\/main\.ts$/;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const log = (text: string) => process.stdout.write(`${text}\n`);

export interface BenchEnvironment {
  runId: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  db: PrismaClient;
  redis: Redis;
  /**
   * Starts an entry point of the repo (node options may come first) with the bench env: an app's
   * (`apps/<app>/src/main.ts`) compiled, with plain node as in production; anything else through tsx.
   */
  start: (args: string[], env?: Record<string, string>) => ChildProcess;
  /** Stops the processes, deletes the Redis keys and drops the database. */
  cleanUp: (children: (ChildProcess | undefined)[]) => Promise<void>;
}

export async function createBenchEnvironment(): Promise<BenchEnvironment> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const databaseUrl = `postgresql://postgres@127.0.0.1:5432/vt_bench_${runId}`;
  // BENCH_REDIS_URL: another Redis, such as a master with a replica for REDIS_DURABILITY=replicated.
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const queuePrefix = `{vt-bench-${runId}}`;
  await ensureDatabaseExists(databaseUrl);
  await applyMigrations(databaseUrl);
  const db = createPrismaClient({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: 2,
    DATABASE_CONNECT_TIMEOUT_MS: 5000,
    DATABASE_IDLE_TIMEOUT_MS: 10000,
    DATABASE_STATEMENT_TIMEOUT_MS: 60000,
  });
  const redis = new Redis(redisUrl);
  // The apps as production runs them: `pnpm build`'s bundles, with plain node.
  execFileSync(process.execPath, ['scripts/build-apps.mjs'], { cwd: ROOT, stdio: 'inherit' });
  return {
    runId,
    databaseUrl,
    redisUrl,
    queuePrefix,
    db,
    redis,
    start: (args, env = {}) =>
      spawn(process.execPath, compiledOrTsx(args), {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: databaseUrl,
          REDIS_URL: redisUrl,
          QUEUE_PREFIX: queuePrefix,
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          // As the Dockerfile and `pnpm start` run the apps (docs/operators.md, "Memory").
          MALLOC_ARENA_MAX: '2',
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    cleanUp: async (children) => {
      for (const child of children) child?.kill('SIGTERM');
      await sleep(1500);
      // `{vt-bench-…` without its closing brace: the tagged keys too (`{vt-bench-…:<tag>}:…`, the
      // webhook's duplicate claims, a floor's queue), which `taggedRedisKey` keeps in the namespace.
      const keys = await redis.keys(`${queuePrefix.slice(0, -1)}*`);
      // In slices: a run can leave far more keys than one call's arguments can hold.
      for (let i = 0; i < keys.length; i += 10_000) await redis.del(...keys.slice(i, i + 10_000));
      redis.disconnect();
      await db.$disconnect();
      await dropDatabase(databaseUrl);
    },
  };
}

function compiledOrTsx(args: string[]): string[] {
  const app = args.findIndex((arg) => APP_SOURCE.test(arg));
  if (app === -1) return ['--import', TSX, ...args];
  return args.map((arg, i) => (i === app ? arg.replace(APP_SOURCE, 'apps/$1/dist/main.js') : arg));
}

/** Polls until the URL answers below 500. */
export async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${url} did not answer`);
}

/**
 * CPU seconds (user + system) a child process has used so far, from /proc (Linux), or undefined
 * elsewhere. Per request, it is a steadier figure than a rate when the machine's speed drifts.
 */
export function cpuSeconds(child: ChildProcess): number | undefined {
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5); the slice starts at field 3. Ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number, withReapedChildren = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3: utime is 14, stime 15,
  // cutime 16, cstime 17 (the children it has reaped).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return ((utime ?? 0) + (stime ?? 0) + (withReapedChildren ? (cutime ?? 0) + (cstime ?? 0) : 0)) / TICKS_PER_SECOND;
}

/** The pids of every process whose command name is `comm` (redis-server, postgres). */
export function pidsNamed(comm: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm;
      } catch {
        return false;
      }
    });
}

/**
 * CPU seconds used by the named server processes together. Postgres forks a backend per
 * connection: the postmaster's reaped-children time counts the backends that have exited.
 */
export function serverCpuSeconds(comm: string): number {
  return pidsNamed(comm).reduce((sum, pid) => {
    try {
      return sum + cpuSecondsOf(pid, true);
    } catch {
      return sum; // exited between the listing and the read
    }
  }, 0);
}

/**
 * used_cpu (user + sys, seconds), commands processed and used_memory, summed over the Redis servers
 * on these loopback ports: per server, so other runs on the machine's shared Redis do not count.
 */
export async function redisInfo(ports: number[]) {
  let cpu = 0;
  let commands = 0;
  let memory = 0;
  for (const port of ports) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
    await client.connect();
    const info = await client.info();
    client.disconnect();
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
    cpu += field('used_cpu_user') + field('used_cpu_sys');
    commands += field('total_commands_processed');
    memory += field('used_memory');
  }
  return { cpu, commands, memory };
}

/** CPU seconds of every Postgres backend connected to this database now, by pid. */
export async function backendCpu(db: PrismaClient, database: string): Promise<Map<number, number>> {
  const rows = await db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = ${database}`;
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuSecondsOf(pid));
    } catch {
      // exited since the listing
    }
  }
  return cpu;
}

/** What the backends used between two readings; one that started in between counts from zero. */
export function backendCpuUsed(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}

/**
 * Rows inserted and updated and transactions committed in one database so far (pg_stat_database).
 * Postgres 15 flushes a backend's counters when it exits or has been idle 10 s: read them after that.
 */
export async function databaseStats(db: PrismaClient, database: string) {
  const [row] = await db.$queryRaw<{ inserted: bigint; updated: bigint; commits: bigint }[]>`
    SELECT tup_inserted AS inserted, tup_updated AS updated, xact_commit AS commits
    FROM pg_stat_database WHERE datname = ${database}`;
  return {
    inserted: Number(row?.inserted ?? 0),
    updated: Number(row?.updated ?? 0),
    commits: Number(row?.commits ?? 0),
  };
}
