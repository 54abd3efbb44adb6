import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { APP_CONFIG_SCHEMAS } from '@vt/config';
import { describe, expect, it } from 'vitest';
import {
  type AppName,
  appOf,
  appServicesOf,
  type ComposeLayout,
  configOf,
  joinCommand,
  loadCompose,
  rawEnvironment,
  readRepoFile,
  root,
} from './compose-files.ts';

// No Docker engine runs in CI, so the deployment files are checked statically: every app service in
// docker-compose.yml, and in it with docker-compose.scale.yml merged over it, must start with the
// environment it is given, and the Dockerfile must build the way the rest of the project installs.

const compose = loadCompose('docker-compose.yml');
const dockerfile = readRepoFile('Dockerfile');

const portVariableOf = (app: AppName) => Object.keys(APP_CONFIG_SCHEMAS[app].shape).find((k) => k.endsWith('_PORT'));

function seconds(duration: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(duration);
  if (!match) throw new Error(`unsupported duration ${duration}`);
  return Number(match[1]) / ({ ms: 1000, s: 1, m: 1 / 60 } as const)[match[2] as 'ms' | 's' | 'm'];
}

// The checks every layout must pass: the default, and the scale layout merged over it.
const layouts: [string, ComposeLayout][] = [
  ['docker-compose.yml', compose],
  ['docker-compose.yml + docker-compose.scale.yml', loadCompose('docker-compose.yml', 'docker-compose.scale.yml')],
];

describe.each(layouts)('%s', (_files, layout) => {
  const appServices = appServicesOf(layout);
  const workerServices = appServices.filter((s) => s.app === 'crawl-worker' || s.app === 'lead-worker');

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
    const migrate = layout.services.migrate;
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

  it('names only defined services in depends_on, each with a condition Compose knows', () => {
    for (const [name, service] of Object.entries(layout.services)) {
      const dependencies = Array.isArray(service.depends_on)
        ? service.depends_on.map((on): [string, { condition?: string }] => [on, {}])
        : Object.entries(service.depends_on ?? {});
      for (const [on, { condition }] of dependencies) {
        expect(Object.keys(layout.services), `${name} depends on ${on}`).toContain(on);
        expect(['service_started', 'service_healthy', 'service_completed_successfully', undefined]).toContain(
          condition,
        );
        if (condition === 'service_healthy') expect(layout.services[on]?.healthcheck, `${on} health`).toBeDefined();
      }
    }
  });

  it('runs only the images docker-compose.yml pins, and names a declared volume or a file of the repository in every mount', () => {
    const pinned = Object.values(compose.services).flatMap((s) => (s.image ? [s.image] : []));
    for (const [name, service] of Object.entries(layout.services)) {
      if (service.image) expect(pinned, name).toContain(service.image);
      for (const mount of service.volumes ?? []) {
        const source = mount.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(resolve(root, source)), `${name}: ${source}`).toBe(true);
        else expect(Object.keys(layout.volumes), `${name}: ${source}`).toContain(source);
      }
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

  it('builds every service with a build section from the Dockerfile in the repository', () => {
    const built = Object.entries(layout.services).filter(([, s]) => s.build !== undefined);
    expect(built.map(([name]) => name)).toEqual(expect.arrayContaining(appServices.map((s) => s.name)));
    for (const [, { build }] of built) {
      const context = typeof build === 'string' ? build : (build?.context ?? '.');
      const file = typeof build === 'string' ? 'Dockerfile' : (build?.dockerfile ?? 'Dockerfile');
      expect(resolve(root, context, file)).toBe(resolve(root, 'Dockerfile'));
      expect(existsSync(resolve(root, context, file))).toBe(true);
    }
  });
});

describe('docker-compose.yml alone', () => {
  const appServices = appServicesOf(compose);

  it('points every DATABASE_URL at the postgres service and every REDIS_URL at the redis service', () => {
    for (const { app, service } of appServices) {
      const config = configOf(app, service);
      expect(new URL(String(config.DATABASE_URL)).hostname).toBe('postgres');
      expect(new URL(String(config.REDIS_URL)).hostname).toBe('redis');
    }
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.redis?.image).toMatch(/^redis:/);
  });

  it('runs redis with appendonly yes, appendfsync always and maxmemory-policy noeviction, as BullMQ and the 2xx promise need', () => {
    const command = joinCommand(compose.services.redis?.command);
    expect(command).toMatch(/--appendonly yes\b/);
    expect(command).toMatch(/--appendfsync always\b/);
    expect(command).toMatch(/--maxmemory-policy noeviction\b/);
  });

  it('offers the ops CLI under the tools profile for `docker compose run --rm ops ...`', () => {
    const ops = compose.services.ops;
    expect(ops?.profiles).toEqual(['tools']);
    expect(joinCommand(ops?.entrypoint)).toBe('node apps/ops/dist/main.js');
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
