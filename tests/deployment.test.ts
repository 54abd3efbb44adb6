import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_CONFIG_SCHEMAS, parseConfig } from '@vt/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No Docker engine runs in CI, so the deployment files are checked statically: every app service in
// docker-compose.yml must start with the environment it is given, and the Dockerfile must build
// the way the rest of the project installs.

type AppName = keyof typeof APP_CONFIG_SCHEMAS;
type CommandLine = string | string[] | undefined;

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: CommandLine;
  entrypoint?: CommandLine;
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: unknown[];
  container_name?: string;
  profiles?: string[];
  healthcheck?: { test?: CommandLine };
  depends_on?: Record<string, { condition?: string }> | string[];
  stop_grace_period?: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const readRepoFile = (path: string) => readFileSync(join(root, path), 'utf8');

const compose = parse(readRepoFile('docker-compose.yml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = Object.entries(compose.services);
const dockerfile = readRepoFile('Dockerfile');

const joinCommand = (line: CommandLine) => (Array.isArray(line) ? line.join(' ') : (line ?? ''));

/** The app a service runs, from the compiled `apps/<app>/dist/main.js` in its entrypoint or command. */
function appOf(service: ComposeService): AppName | undefined {
  const line = `${joinCommand(service.entrypoint)} ${joinCommand(service.command)}`;
  const name = /^node apps\/([a-z-]+)\/dist\/main\.js\b/.exec(line.trim())?.[1];
  if (name === undefined) return undefined;
  if (!(name in APP_CONFIG_SCHEMAS)) throw new Error(`service runs unknown app ${name}`);
  return name as AppName;
}

const appServices = services.flatMap(([name, service]) => {
  const app = appOf(service);
  return app ? [{ name, service, app }] : [];
});
const workerServices = appServices.filter((s) => s.app === 'crawl-worker' || s.app === 'lead-worker');

const INTERPOLATION = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g;

/**
 * Resolves Compose interpolation as `docker compose` would with a .env holding only the required
 * variables: `${VAR:?msg}` gets a 40-character secret, `${VAR:-default}` its default.
 */
function interpolate(value: string): string {
  if (value.replace(INTERPOLATION, '').includes('$')) throw new Error(`unsupported interpolation in ${value}`);
  return value.replace(INTERPOLATION, (match, _name, operator: string | undefined, argument: string) => {
    if (match === '$$') return '$';
    if (operator === undefined) return '';
    return operator.endsWith('?') ? randomBytes(20).toString('hex') : argument;
  });
}

/** The raw `environment:` of a service as a map, list form included. */
function rawEnvironment(service: ComposeService): Record<string, string | undefined> {
  const entries = Array.isArray(service.environment)
    ? service.environment.map((line) => {
        const at = line.indexOf('=');
        return at === -1 ? [line, undefined] : [line.slice(0, at), line.slice(at + 1)];
      })
    : Object.entries(service.environment ?? {}).map(([key, value]) => [
        key,
        value === null ? undefined : String(value),
      ]);
  return Object.fromEntries(entries);
}

function environmentOf(service: ComposeService): Record<string, string | undefined> {
  const env = rawEnvironment(service);
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value && interpolate(value)]));
}

const configOf = (app: AppName, service: ComposeService) =>
  parseConfig(app, APP_CONFIG_SCHEMAS[app], environmentOf(service)) as Record<string, unknown>;

const portVariableOf = (app: AppName) => Object.keys(APP_CONFIG_SCHEMAS[app].shape).find((k) => k.endsWith('_PORT'));

function seconds(duration: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(duration);
  if (!match) throw new Error(`unsupported duration ${duration}`);
  return Number(match[1]) / ({ ms: 1000, s: 1, m: 1 / 60 } as const)[match[2] as 'ms' | 's' | 'm'];
}

describe('docker-compose.yml', () => {
  it('has a service for every app except ops, started without a profile', () => {
    const started = appServices.filter((s) => !s.service.profiles?.length).map((s) => s.app);
    for (const app of Object.keys(APP_CONFIG_SCHEMAS).filter((a) => a !== 'ops')) expect(started).toContain(app);
  });

  it.each(appServices.map((s) => [s.name, s.app, s.service] as const))(
    '%s: its environment satisfies the %s config schema',
    (_name, app, service) => {
      expect(() => configOf(app, service)).not.toThrow();
    },
  );

  it.each(appServices.map((s) => [s.name, s.app, s.service] as const))(
    '%s: sets only variables the %s schema defines (no typos silently ignored)',
    (_name, app, service) => {
      const known = Object.keys(APP_CONFIG_SCHEMAS[app].shape);
      expect(Object.keys(rawEnvironment(service)).filter((key) => !known.includes(key))).toEqual([]);
    },
  );

  it('points every DATABASE_URL at the postgres service and every REDIS_URL at the redis service', () => {
    for (const { app, service } of appServices) {
      const config = configOf(app, service);
      expect(new URL(String(config.DATABASE_URL)).hostname).toBe('postgres');
      expect(new URL(String(config.REDIS_URL)).hostname).toBe('redis');
    }
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.redis?.image).toMatch(/^redis:/);
  });

  it('takes deployment secrets from a required VAR:?message interpolation (.env), never a literal', () => {
    const gateway = appServices.find((s) => s.app === 'ingest-gateway');
    expect(rawEnvironment(gateway?.service ?? {})).toHaveProperty('CRAWL_TOKEN_SECRET');
    for (const { service } of appServices) {
      for (const [key, value] of Object.entries(rawEnvironment(service))) {
        if (key === 'CRAWL_TOKEN_SECRET' || key === 'WEBHOOK_SIGNING_KEY') {
          expect(value).toMatch(new RegExp(`^\\$\\{${key}:\\?[^}]+\\}$`));
        }
      }
    }
  });

  it('runs redis with appendonly yes, appendfsync always and maxmemory-policy noeviction, as BullMQ and the 2xx promise need', () => {
    const command = joinCommand(compose.services.redis?.command);
    expect(command).toMatch(/--appendonly yes\b/);
    expect(command).toMatch(/--appendfsync always\b/);
    expect(command).toMatch(/--maxmemory-policy noeviction\b/);
  });

  it('gives worker services no ports and no container_name, so --scale works', () => {
    expect(workerServices.map((s) => s.app).sort()).toEqual(['crawl-worker', 'lead-worker']);
    for (const { service } of workerServices) {
      expect(service.ports).toBeUndefined();
      expect(service.container_name).toBeUndefined();
    }
  });

  it('publishes and health-checks the port each app is configured to listen on', () => {
    for (const { app, service } of appServices) {
      const portVariable = portVariableOf(app);
      if (!portVariable) continue;
      const port = configOf(app, service)[portVariable];
      expect(joinCommand(service.healthcheck?.test)).toContain(`:${port}/readyz`);
      const containerPorts = (service.ports ?? []).map((p) => String(p).split(':').at(-1));
      if (app === 'ingest-gateway' || app === 'read-api' || app === 'console')
        expect(containerPorts).toContain(String(port));
    }
  });

  it('starts apps after a successful migrate and healthy postgres and redis', () => {
    const migrate = compose.services.migrate;
    expect(migrate && appOf(migrate)).toBe('ops');
    expect(joinCommand(migrate?.command)).toMatch(/\bdb migrate\b/);
    for (const { name, service } of appServices.filter((s) => s.name !== 'migrate')) {
      expect(service.depends_on, name).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
    }
    for (const { name, service } of appServices.filter((s) => !s.service.profiles?.length && s.name !== 'migrate')) {
      expect(service.depends_on, name).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
  });

  it('gives each long-running app longer to stop than its SHUTDOWN_TIMEOUT_MS', () => {
    for (const { name, app, service } of appServices.filter(
      (s) => 'SHUTDOWN_TIMEOUT_MS' in APP_CONFIG_SCHEMAS[s.app].shape,
    )) {
      const timeoutMs = Number(configOf(app, service).SHUTDOWN_TIMEOUT_MS);
      expect(seconds(service.stop_grace_period ?? '10s') * 1000, name).toBeGreaterThan(timeoutMs);
    }
  });

  it('offers the ops CLI under the tools profile for `docker compose run --rm ops ...`', () => {
    const ops = compose.services.ops;
    expect(ops?.profiles).toEqual(['tools']);
    expect(joinCommand(ops?.entrypoint)).toBe('node apps/ops/dist/main.js');
  });

  it('builds every service with a build section from the Dockerfile in the repository', () => {
    const built = services.filter(([, s]) => s.build !== undefined);
    expect(built.map(([name]) => name)).toEqual(expect.arrayContaining(appServices.map((s) => s.name)));
    for (const [, { build }] of built) {
      const context = typeof build === 'string' ? build : (build?.context ?? '.');
      const file = typeof build === 'string' ? 'Dockerfile' : (build?.dockerfile ?? 'Dockerfile');
      expect(resolve(root, context, file)).toBe(resolve(root, 'Dockerfile'));
      expect(existsSync(resolve(root, context, file))).toBe(true);
    }
  });
});

describe('Dockerfile', () => {
  const installAt = dockerfile.search(/pnpm install\b/);

  it('installs pnpm with npm i -g at the version package.json pins, then installs with --frozen-lockfile', () => {
    const { packageManager } = JSON.parse(readRepoFile('package.json')) as { packageManager: string };
    expect(dockerfile).toMatch(/npm i(nstall)? -g pnpm@10\b/);
    expect(dockerfile).toContain(`npm i -g ${packageManager}`);
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile\b/);
  });

  it('copies every workspace package.json and what postinstall needs before pnpm install', () => {
    const manifests = ['apps', 'packages'].flatMap((dir) =>
      readdirSync(join(root, dir))
        .filter((name) => existsSync(join(root, dir, name, 'package.json')))
        .map((name) => `${dir}/${name}/package.json`),
    );
    const copiedBeforeInstall = dockerfile
      .slice(0, installAt)
      .split('\n')
      .filter((line) => line.startsWith('COPY '))
      .flatMap((line) => line.split(/\s+/).slice(1, -1)) // sources: between COPY and the destination
      .filter((source) => !source.startsWith('--'));
    expect(copiedBeforeInstall).toEqual(
      expect.arrayContaining([...manifests, 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'prisma', 'packages/db/scripts']),
    );
  });

  it('builds the apps, then runs them compiled with plain node on a Node LTS, production dependencies only', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)-bookworm-slim$/m);
    const stages = dockerfile.split(/\nFROM /).slice(1);
    expect(stages.every((stage) => /^(\$\{NODE_IMAGE\}|\w+) AS /.test(stage))).toBe(true);
    expect(dockerfile).toMatch(/^RUN pnpm build$/m);
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile --prod\b/);
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtimeStage).toMatch(/^FROM \$\{NODE_IMAGE\} AS runtime$/m);
    expect(runtimeStage).toContain('COPY --from=production-dependencies /app/node_modules ./node_modules');
    expect(runtimeStage).not.toContain('tsx');
    expect(runtimeStage).toMatch(/^CMD \["node", "apps\/read-api\/dist\/main\.js"\]$/m);
  });

  it('runs as the non-root node user with NODE_ENV=production', () => {
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtimeStage).toMatch(/^ENV NODE_ENV=production$/m);
    expect(runtimeStage).toMatch(/^USER node$/m);
  });

  it('runs the apps with MALLOC_ARENA_MAX=2, as pnpm start and the benchmarks do (docs/operators.md, "Memory")', () => {
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtimeStage).toMatch(/^ENV MALLOC_ARENA_MAX=2$/m);
    expect(readRepoFile('apps/ops/src/dev/start.ts')).toContain("MALLOC_ARENA_MAX: '2'");
    expect(readRepoFile('docs/operators.md')).toContain('`MALLOC_ARENA_MAX=2`');
  });

  it('keeps node_modules and the generated Prisma client out of the build context', () => {
    const ignored = readRepoFile('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toContain('**/node_modules');
    expect(ignored).toContain('packages/db/src/generated');
  });
});
