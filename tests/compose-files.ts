import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_CONFIG_SCHEMAS, parseConfig } from '@vt/config';
import { parse } from 'yaml';

// The compose files as `docker compose -f … -f …` would see them, for the deployment tests: no
// Docker engine runs in CI, so the files are read and merged here by the Compose specification's
// rules (only those the files use: anything else throws, rather than being merged wrongly).

export type AppName = keyof typeof APP_CONFIG_SCHEMAS;
export type CommandLine = string | string[] | undefined;
type Environment = Record<string, string | number | boolean | null> | string[];

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: CommandLine;
  entrypoint?: CommandLine;
  environment?: Environment;
  ports?: unknown[];
  volumes?: string[];
  container_name?: string;
  profiles?: string[];
  healthcheck?: { test?: CommandLine };
  depends_on?: Record<string, { condition?: string }> | string[];
  stop_grace_period?: string;
}

export interface ComposeLayout {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

export const root = fileURLToPath(new URL('..', import.meta.url));
export const readRepoFile = (path: string) => readFileSync(join(root, path), 'utf8');

/** The files merged in order, as `docker compose -f first -f second …` does. */
export function loadCompose(...files: string[]): ComposeLayout {
  const layouts = files.map((file) => parse(readRepoFile(file), { merge: true }) as Partial<ComposeLayout>);
  const services: Record<string, ComposeService> = {};
  const volumes: Record<string, unknown> = {};
  for (const layout of layouts) {
    for (const [name, service] of Object.entries(layout.services ?? {})) {
      services[name] = services[name] ? mergeService(services[name], service) : service;
    }
    Object.assign(volumes, layout.volumes ?? {});
  }
  return { services, volumes };
}

/** A service of a later file over the same of an earlier one (Compose spec, "Merge and override"). */
function mergeService(base: ComposeService, over: ComposeService): ComposeService {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const before = merged[key];
    if (before === undefined || key === 'command' || key === 'entrypoint' || key === 'image') merged[key] = value;
    else if (key === 'environment')
      merged[key] = { ...rawEnvironment(base), ...rawEnvironment({ environment: value as Environment }) };
    else if (key === 'volumes') merged[key] = mergeByTarget(before as string[], value as string[]);
    else if (key === 'depends_on' && !Array.isArray(before) && !Array.isArray(value))
      merged[key] = { ...(before as object), ...(value as object) };
    else throw new Error(`merging ${key} of a service is not supported here`);
  }
  return merged as ComposeService;
}

/** Volumes merge by their path in the container: a later mount of the same path replaces the earlier. */
function mergeByTarget(before: string[], over: string[]): string[] {
  const target = (mount: string) => mount.split(':')[1];
  const replaced = new Set(over.map(target));
  return [...before.filter((mount) => !replaced.has(target(mount))), ...over];
}

export const joinCommand = (line: CommandLine) => (Array.isArray(line) ? line.join(' ') : (line ?? ''));

/** The app a service runs, from the compiled `apps/<app>/dist/main.js` in its entrypoint or command. */
export function appOf(service: ComposeService): AppName | undefined {
  const line = `${joinCommand(service.entrypoint)} ${joinCommand(service.command)}`;
  const name = /^node apps\/([a-z-]+)\/dist\/main\.js\b/.exec(line.trim())?.[1];
  if (name === undefined) return undefined;
  if (!(name in APP_CONFIG_SCHEMAS)) throw new Error(`service runs unknown app ${name}`);
  return name as AppName;
}

export function appServicesOf(layout: ComposeLayout) {
  return Object.entries(layout.services).flatMap(([name, service]) => {
    const app = appOf(service);
    return app ? [{ name, service, app }] : [];
  });
}

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
export function rawEnvironment(service: ComposeService): Record<string, string | undefined> {
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

export function environmentOf(service: ComposeService): Record<string, string | undefined> {
  const env = rawEnvironment(service);
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value && interpolate(value)]));
}

export const configOf = (app: AppName, service: ComposeService) =>
  parseConfig(app, APP_CONFIG_SCHEMAS[app], environmentOf(service)) as Record<string, unknown>;

/** `./host/path:/container/path[:ro]` bind mounts of a service, as [host path, container path]. */
export const bindMountsOf = (service: ComposeService) =>
  (service.volumes ?? [])
    .filter((mount) => mount.startsWith('./'))
    .map((mount) => mount.split(':').slice(0, 2) as [string, string]);
