import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveCrawlToken, deriveWebhookSecret } from '@vt/credentials';
import { nodeArguments, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDeploymentSecrets } from '../env-file.ts';
import { ops } from './testing/run-ops.ts';

// The ops CLI as an operator runs it: the real entry point, compiled from apps/ops/src/main.ts as
// the production image runs it (`pnpm ops` runs the same sources through tsx), in a directory of
// its own, with an environment of its own: the .env it reads, its usage errors, its progress line
// on a terminal (a real pty, from util-linux's `script`) and nowhere else.

const OPS = nodeArguments('apps/ops/src/main.ts');
const dirs: string[] = [];
const suffix = randomBytes(4).toString('hex');

afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await testDb().crawlerIpRangeSet.deleteMany({ where: { operator: { endsWith: `-${suffix}` } } });
});

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vt-ops-'));
  dirs.push(dir);
  return dir;
}

/** What the operator's shell has: the database and Redis, and no deployment secret unless given. */
const baseEnv = {
  PATH: process.env.PATH ?? '',
  DATABASE_URL: testEnv.DATABASE_URL,
  REDIS_URL: testEnv.REDIS_URL,
  QUEUE_PREFIX: testEnv.QUEUE_PREFIX,
};

function runOps(args: string[], options: { cwd: string; env?: Record<string, string> }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...OPS, ...args],
      { cwd: options.cwd, env: { ...baseEnv, ...options.env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

/** The same, on a terminal: util-linux's `script` gives it a pty for stdin, stdout and stderr. */
function runOpsOnTerminal(args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, ...OPS, ...args].map(quote).join(' ');
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      'script',
      ['-qefc', command, '/dev/null'],
      { cwd: options.cwd, env: { ...baseEnv, ...options.env }, timeout: 60_000 },
      (err, stdout) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, output: stdout }),
    );
  });
}

async function newTeam() {
  const slug = uniqueSlug('env');
  const created = await ops('team', 'create', '--name', 'Env', '--slug', slug, '--owner-email', `${slug}@example.com`);
  expect(created.code).toBe(0);
  return slug;
}

const createProperty = (slug: string) => [
  'property',
  'create',
  '--team',
  slug,
  '--name',
  'Shop',
  '--domain',
  'shop.example',
  '--plan',
  'growth',
  '--json',
];

describe('pnpm ops reads ./.env as pnpm start does', () => {
  it('prints the crawl token and signing secret derived from the secrets pnpm start wrote into ./.env', async () => {
    const cwd = workDir();
    // What `pnpm start` does on its first run: generate the deployment secrets into ./.env.
    const { env: written, generated } = ensureDeploymentSecrets({}, join(cwd, '.env'));
    expect(generated).toEqual([
      'CRAWL_TOKEN_SECRET',
      'WEBHOOK_SIGNING_KEY',
      'ALERT_WEBHOOK_SIGNING_KEY',
      'REPORT_UNSUBSCRIBE_KEY',
    ]);
    expect(readFileSync(join(cwd, '.env'), 'utf8')).toContain('CRAWL_TOKEN_SECRET=');

    const { code, stdout, stderr } = await runOps(createProperty(await newTeam()), { cwd });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.crawl.token).toBe(deriveCrawlToken(written.CRAWL_TOKEN_SECRET!, out.property.id, 1));
    expect(out.webhook.signingSecret).toBe(deriveWebhookSecret(written.WEBHOOK_SIGNING_KEY!, out.property.id));
    expect(stdout).not.toContain('is not set');
  });

  it('a variable set in the environment wins over ./.env; without .env or secret the token is null, as before', async () => {
    const cwd = workDir();
    writeFileSync(
      join(cwd, '.env'),
      '# written by hand\nCRAWL_TOKEN_SECRET=from-the-file-0123456789abcdef0123456789\nPUBLIC_INGEST_URL="https://file.example"\n',
    );
    const slug = await newTeam();
    const fromEnv = 'from-the-environment-0123456789abcdef0123';
    const { code, stdout } = await runOps(createProperty(slug), {
      cwd,
      env: { CRAWL_TOKEN_SECRET: fromEnv },
    });
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.crawl.token).toBe(deriveCrawlToken(fromEnv, out.property.id, 1));
    expect(out.crawl.ingestUrl).toBe(`https://file.example/api/ingest/crawl/${out.property.id}`);

    const bare = await runOps(createProperty(slug), { cwd: workDir() });
    expect(bare.code).toBe(0);
    expect(JSON.parse(bare.stdout).crawl.token).toBeNull();
  });
});

describe('usage errors', () => {
  it('an invalid option value exits 2 and, under --json, answers one JSON object', async () => {
    const slug = await newTeam();
    const badRole = await ops('team', 'add-member', '--team', slug, '--email', 'a@example.com', '--role', 'boss');
    expect(badRole.code).toBe(2);
    expect(badRole.json).toEqual({ error: { code: 'invalid_argument', message: expect.stringContaining('--role') } });
    const badStatus = await ops('crawl', 'connections', '--status', 'sleeping');
    expect(badStatus.code).toBe(2);
    expect(badStatus.json.error.code).toBe('invalid_argument');
    // An operation that fails is not a usage error.
    expect(
      (await ops('team', 'add-member', '--team', 'no-such-team', '--email', 'a@example.com', '--role', 'admin')).code,
    ).toBe(1);
  });

  it('commander’s usage errors answer JSON under --json, text without, and exit 2 either way', async () => {
    const cwd = workDir();
    const cases: [string[], RegExp][] = [
      [['team', 'create', '--name', 'P'], /^required option '--slug <slug>' not specified$/],
      [['key', 'revoke', '--id', 'k', '--forever'], /^unknown option '--forever'/],
      [['teams', 'list'], /^unknown command 'teams'/],
      [['team'], /command is missing/],
    ];
    // The eight runs at once: one after another they took most of the test's time on a busy machine.
    const runs = await Promise.all(
      cases.map(async ([args]) => ({
        json: await runOps([...args, '--json'], { cwd }),
        text: await runOps(args, { cwd }),
      })),
    );
    for (const [index, [args, message]] of cases.entries()) {
      const { json, text } = runs[index]!;
      expect(json.code, args.join(' ')).toBe(2);
      expect(json.stderr, args.join(' ')).toBe('');
      const lines = json.stdout.trim().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      const parsed = JSON.parse(lines[0]!);
      expect(parsed.error.code).toBe('usage_error');
      expect(parsed.error.message).toMatch(message);

      expect(text.code, args.join(' ')).toBe(2);
      expect(text.stdout).toBe('');
      expect(text.stderr.length, args.join(' ')).toBeGreaterThan(0);
    }
  });
});

describe('progress', () => {
  function rangesDir(): string {
    const dir = workDir();
    writeFileSync(
      join(dir, `test-pty-${suffix}.json`),
      JSON.stringify({ creationTime: '2026-01-01T00:00:00Z', prefixes: [{ ipv4Prefix: '192.0.2.0/24' }] }),
    );
    return dir;
  }

  it('crawlers refresh shows its steps on one rewritten line on a terminal, cleared before the result', async () => {
    const from = rangesDir();
    const { code, output } = await runOpsOnTerminal(['crawlers', 'refresh', '--from', from], {
      cwd: workDir(),
      env: { CRAWL_TOKEN_SECRET: testEnv.CRAWL_TOKEN_SECRET },
    });
    expect(code, output).toBe(0);
    const CLEAR = '\r\x1b[2K';
    expect(output).toContain(`${CLEAR}crawlers refresh: the AI agent catalogue's community lists (from `);
    const lastClear = output.lastIndexOf(CLEAR);
    expect(lastClear).toBeGreaterThan(0);
    const result = JSON.parse(output.slice(lastClear + CLEAR.length).replaceAll('\r\n', '\n'));
    expect(result.operators.map((o: { operator: string }) => o.operator)).toEqual([`test-pty-${suffix}`]);
  });

  it('shows none under --json, nor when stdout is not a terminal', async () => {
    const from = rangesDir();
    const onTerminal = await runOpsOnTerminal(['crawlers', 'refresh', '--from', from, '--json'], { cwd: workDir() });
    expect(onTerminal.code, onTerminal.output).toBe(0);
    expect(onTerminal.output).not.toContain('\x1b[');
    expect(JSON.parse(onTerminal.output.trim()).operators).toHaveLength(1);

    const piped = await runOps(['crawlers', 'refresh', '--from', from], { cwd: workDir() });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout).operators).toHaveLength(1);
    // Two CLI processes (tsx) each refreshing the catalogue: seconds on a quiet machine.
  }, 90_000);
});
