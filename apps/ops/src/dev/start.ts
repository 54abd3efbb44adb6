import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, type DevStartConfig, devStartConfigSchema, parseConfig } from '@vt/config';
import { createPrismaClient } from '@vt/db';
import { serveCaughtMail, startMailCatcher } from '@vt/mail-catcher';
import concurrently from 'concurrently';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrateDatabase } from '../cli/commands/database.ts';
import { connectionDetails } from '../cli/commands/properties.ts';
import { DEMO_USERS } from '../demo/content.ts';
import { DEMO_TEAM_SLUG, demoApiKey, demoPassword, seedDemo } from '../demo/seed.ts';
import { ensureDeploymentSecrets, withEnvFile } from '../env-file.ts';
import { printBanner } from './banner.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const APPS = [
  'ingest-gateway',
  'crawl-worker',
  'lead-worker',
  'answer-collector',
  'notifier',
  'read-api',
  'console',
] as const;

/**
 * `pnpm start`: the whole system on one machine, in one terminal. Reads ./.env (creating the two
 * deployment secrets there on first run, so tokens survive restarts; `pnpm ops` reads the same file), checks Postgres and Redis,
 * creates and migrates the database, seeds the demo data into an empty database, starts every app
 * with prefixed logs and prints how to try each endpoint. Unless SMTP_URL is set, an embedded mail
 * catcher on 127.0.0.1 takes the notifier's email, and the console shows what it caught.
 */
export async function runDevStart(processEnv: NodeJS.ProcessEnv): Promise<void> {
  const env = loadDotEnv(processEnv);
  let config: DevStartConfig;
  try {
    config = parseConfig('pnpm start', devStartConfigSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) return exitWith(err.message);
    throw err;
  }
  await checkDependencies(config);
  const unbuilt = APPS.filter((app) => !existsSync(`${ROOT}apps/${app}/dist/main.js`));
  if (unbuilt.length > 0)
    return exitWith(`${unbuilt.join(', ')} not built: run \`pnpm build\` (\`pnpm start\` builds them).`);

  buildWebUiIfMissing();
  const migration = await migrateDatabase(config.DATABASE_URL);
  const db = createPrismaClient({ ...config, DATABASE_POOL_MAX: 2 }, 'ops');
  const ctx = { db, config };
  try {
    if ((await db.team.count()) === 0) {
      log('empty database: seeding the demo team');
      await seedDemo(ctx);
    }
    const demoTeam = await db.team.findUnique({ where: { slug: DEMO_TEAM_SLUG } });
    const demoProperty = demoTeam
      ? await db.property.findFirst({
          where: { teamId: demoTeam.id, plan: { not: 'free' }, subscriptionStatus: 'active' },
          orderBy: { name: 'asc' },
        })
      : null;
    const banner = {
      config,
      migrationsApplied: migration.applied,
      demoKey: demoTeam ? demoApiKey(config).key : null,
      demoLogin: demoTeam
        ? { email: DEMO_USERS[0].email, memberEmail: DEMO_USERS[2].email, password: demoPassword(config) }
        : null,
      demoProperty: demoProperty ? { ...connectionDetails(ctx, demoProperty), domain: demoProperty.domain } : null,
    };
    await db.$disconnect();
    const mail = await startMailCatcherUnlessSmtp(config);
    const appEnv = { ...env, ...mail.env };

    const { commands, result } = concurrently(
      APPS.map((app) => ({
        name: app,
        // exec: the app itself receives the signal and reports its own exit code. The compiled
        // app, with plain node, as production runs it (`pnpm start` builds them first).
        command: `exec "${process.execPath}" apps/${app}/dist/main.js`,
        // As the Dockerfile runs them (docs/operators.md, "Memory"); a value of the operator's own wins.
        env: { MALLOC_ARENA_MAX: '2', ...appEnv },
      })),
      {
        cwd: ROOT,
        prefix: 'name',
        prefixColors: ['cyan', 'magenta', 'yellow', 'gray', 'red', 'green', 'blue'],
        // Each app in its own process group: Ctrl-C reaches only this process, which then asks
        // every app exactly once to shut down (a second signal would make an app exit at once).
        spawn: (command, options) => spawn(command, { ...options, detached: true }),
      },
    );
    // concurrently forwards SIGINT/SIGTERM/SIGHUP to every app itself, once; a second signal would
    // make an app skip its graceful shutdown, so here a signal only marks that stopping has begun.
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        stopping = true;
      });
    }
    // One app ending by itself (a crash, a port in use) stops the others: a half-running system
    // misleads.
    const stopAll = () => {
      if (stopping) return;
      stopping = true;
      for (const command of commands) command.kill('SIGTERM');
    };
    for (const command of commands) command.close.subscribe(stopAll);
    await waitUntilHealthy(config);
    printBanner({ ...banner, mail: mail.banner });
    await result.then(
      () => process.exit(0),
      () => process.exit(1),
    );
  } finally {
    await db.$disconnect();
  }
}

/**
 * The embedded mail catcher, unless the operator named an SMTP server: a real SMTP server on
 * 127.0.0.1 (MAIL_CATCHER_PORT, or a free port) that keeps what the notifier sends, and its
 * messages over HTTP on another loopback port for the console (MAIL_CATCHER_URL). It lives in
 * this process, so it stops with `pnpm start`.
 */
async function startMailCatcherUnlessSmtp(config: DevStartConfig) {
  if (config.SMTP_URL) return { env: {}, banner: { smtpUrl: config.SMTP_URL, caught: false } };
  const catcher = await startMailCatcher({ port: config.MAIL_CATCHER_PORT }).catch((err: Error) =>
    exitWith(
      `The mail catcher cannot listen on 127.0.0.1:${config.MAIL_CATCHER_PORT} (${err.message}). Set MAIL_CATCHER_PORT to a free port, or SMTP_URL to a real server.`,
    ),
  );
  const http = await serveCaughtMail(catcher);
  return {
    env: { SMTP_URL: catcher.url, MAIL_CATCHER_URL: http.url },
    banner: { smtpUrl: catcher.url, caught: true },
  };
}

/** The console's web UI is built once (vite, a few seconds); later starts serve the same build. */
function buildWebUiIfMissing() {
  if (existsSync(`${ROOT}apps/console/web/dist/index.html`)) return;
  log('building the console web UI (once)');
  const vite = join(
    dirname(createRequire(`${ROOT}apps/console/package.json`).resolve('vite/package.json')),
    'bin/vite.js',
  );
  const built = spawnSync(process.execPath, [vite, 'build', '--config', 'apps/console/web/vite.config.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) exitWith('The console web UI did not build; see above.');
}

function log(message: string) {
  process.stdout.write(`[start] ${message}\n`);
}

function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** process env wins over ./.env; missing deployment secrets are generated once and kept in it. */
function loadDotEnv(processEnv: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const { env, generated } = ensureDeploymentSecrets(withEnvFile(processEnv));
  for (const name of generated) {
    log(`generated ${name} and saved it in .env (keep it: tokens and webhook secrets derive from it)`);
  }
  return env;
}

async function checkDependencies(config: DevStartConfig) {
  const pgUrl = new URL(config.DATABASE_URL);
  pgUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: pgUrl.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    exitWith(
      `Postgres is not reachable at ${pgUrl.host} (${(err as Error).message}). Start it, for example: docker compose up -d postgres redis`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    exitWith(
      `Redis is not reachable at ${new URL(config.REDIS_URL).host} (${(err as Error).message}). Start it, for example: docker compose up -d postgres redis`,
    );
  } finally {
    redis.disconnect();
  }
}

async function waitUntilHealthy(config: DevStartConfig, timeoutMs = 60_000) {
  const ports = [
    config.INGEST_GATEWAY_PORT,
    config.CRAWL_WORKER_METRICS_PORT,
    config.LEAD_WORKER_METRICS_PORT,
    config.ANSWER_COLLECTOR_METRICS_PORT,
    config.NOTIFIER_PORT,
    config.READ_API_PORT,
    config.CONSOLE_PORT,
  ];
  const deadline = Date.now() + timeoutMs;
  for (const port of ports) {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) return log(`port ${port} is not ready after ${timeoutMs / 1000}s; see the logs above`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
