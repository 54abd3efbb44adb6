import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

// `./.env`, as `pnpm start` and `pnpm ops` read it. pnpm runs both in the repository's root, where
// `pnpm start` writes the deployment secrets on its first run and docker compose reads them.

/** The file both read: `.env` in the directory the command runs in. */
export const ENV_FILE = '.env';

/** The process's environment over the file's: a variable already set wins over `.env`. */
export function withEnvFile(
  processEnv: Record<string, string | undefined>,
  file = ENV_FILE,
): Record<string, string | undefined> {
  const path = resolve(file);
  const fromFile = existsSync(path) ? parseEnv(readFileSync(path, 'utf8')) : {};
  return { ...fromFile, ...processEnv };
}

const DEPLOYMENT_SECRETS = [
  'CRAWL_TOKEN_SECRET',
  'WEBHOOK_SIGNING_KEY',
  'ALERT_WEBHOOK_SIGNING_KEY',
  'REPORT_UNSUBSCRIBE_KEY',
] as const;

/**
 * `pnpm start` only: a deployment secret set nowhere is generated and appended to the file, so
 * tokens and signing secrets stay the same across restarts (and `pnpm ops` derives the same ones).
 * Returns the environment with them, and the names it generated.
 */
export function ensureDeploymentSecrets(
  env: Record<string, string | undefined>,
  file = ENV_FILE,
): { env: Record<string, string | undefined>; generated: string[] } {
  const next = { ...env };
  const generated: string[] = [];
  for (const name of DEPLOYMENT_SECRETS) {
    if (next[name]) continue;
    next[name] = randomBytes(32).toString('base64url');
    appendFileSync(resolve(file), `${name}=${next[name]}\n`, { mode: 0o600 });
    generated.push(name);
  }
  return { env: next, generated };
}
