import { execFile } from 'node:child_process';
import { once } from 'node:events';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadApiHarness, type ReadWorld, seedReadWorld } from './testing/index.ts';

// @vt/api-client as a user gets it: packed by plain `npm pack` in its folder (its prepack builds
// dist/ with tsc; npm applies no workspace rewriting, so the manifest on disk is what ships), the
// tarball unpacked into a project of its own next to nothing but openapi-fetch, and the README's
// examples run with plain node against the real read API and type-checked with tsc as a consumer would.

const run = promisify(execFile);
const PACKAGE_DIR = join(ROOT, 'packages/api-client');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/;
const TODAY = new Date('2026-03-15T12:00:00Z');
const harness = createReadApiHarness({ now: TODAY });

let world: ReadWorld;
let server: Server;
let baseUrl: string;
let work: string;
let consumer: string;
let tarball: string;
let entries: string[];

/** The fenced code blocks of a language in the package's README, in order. */
function readmeBlocks(language: string): string[] {
  const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
  return [...readme.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

beforeAll(async () => {
  world = await seedReadWorld(harness.db, TODAY);
  server = harness.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  work = mkdtempSync(join(tmpdir(), 'vt-api-client-'));
  await run('npm', ['pack', '--pack-destination', work, '--offline', '--loglevel=error'], { cwd: PACKAGE_DIR });
  const packed = readdirSync(work).filter((name) => name.endsWith('.tgz'));
  expect(packed).toHaveLength(1);
  tarball = join(work, packed[0]!);
  entries = (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean).sort();

  // A project of the user's: the package unpacked where `npm install <tarball>` puts it, and its
  // one dependency (from this workspace's store: the tests have no network).
  consumer = join(work, 'consumer');
  const installed = join(consumer, 'node_modules/@vt/api-client');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '--strip-components=1', '-C', installed]);
  symlinkSync(
    realpathSync(join(PACKAGE_DIR, 'node_modules/openapi-fetch')),
    join(consumer, 'node_modules/openapi-fetch'),
  );
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: { '@vt/api-client': `file:${tarball}` },
    }),
  );
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await harness.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the @vt/api-client package', () => {
  it('packs built JavaScript, its types, the README and a manifest whose exports point at them', async () => {
    expect(entries).toEqual([
      'package/README.md',
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/dist/pages.d.ts',
      'package/dist/pages.js',
      'package/dist/read-api.d.ts',
      'package/package.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/@vt/api-client/package.json'), 'utf8'));
    // The workspace's own condition (its sources) is there, first, and names a file not shipped:
    // only a resolver told `vt-workspace` reads it, which no user's is.
    expect(manifest.exports).toEqual({
      '.': { 'vt-workspace': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
    });
    expect(manifest.types).toBe('./dist/index.d.ts');
    expect(manifest.type).toBe('module');
    expect(manifest.dependencies).toEqual({ 'openapi-fetch': expect.stringMatching(/^\^0\./) });
    // Installable from the tarball alone: not private, and no dependency of any kind on this workspace.
    expect(manifest.private).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    expect(JSON.stringify(manifest)).not.toContain('@vt/contracts');
    const js = readFileSync(join(consumer, 'node_modules/@vt/api-client/dist/index.js'), 'utf8');
    expect(js).toContain('export function createReadApiClient');
    expect(js).not.toMatch(/\.ts['"]/);
  });

  it('[READ-30] ships the types generated from the document now, and the check fails on stale ones', async () => {
    const shipped = readFileSync(join(consumer, 'node_modules/@vt/api-client/dist/read-api.d.ts'), 'utf8');
    expect(shipped).toBe(readFileSync(join(PACKAGE_DIR, 'src/read-api.d.ts'), 'utf8'));
    // The committed types are what the document gives now (`pnpm api-client:check` exits 0)…
    const fresh = await run('pnpm', ['-s', 'api-client:check'], { cwd: ROOT });
    expect(fresh.stdout).toContain('is up to date');
    // …and a copy that differs by one summary fails the check, naming the fix.
    const stale = join(work, 'stale.d.ts');
    writeFileSync(stale, shipped.replace('List accepted tasks', 'List tasks'));
    const failed = await run('pnpm', ['-s', 'api-client:check', '--types', stale], { cwd: ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('out of date with the OpenAPI document: run `pnpm api-client:generate`');
    // Two generator runs (tsx, the whole document built each time): seconds on a quiet machine.
  }, 90_000);

  it('[READ-21] runs the README’s example with plain node against the real read API', async () => {
    const [example] = readmeBlocks('js');
    writeFileSync(join(consumer, 'list-mentions.mjs'), example!);
    const env = { PATH: process.env.PATH ?? '', VT_API_URL: `${baseUrl}/`, VT_API_KEY: world.keys.all };
    const { stdout } = await run(process.execPath, ['list-mentions.mjs'], { cwd: consumer, env });
    const lines = stdout.trim().split('\n');
    // From 2026-03-01 to today: 8 hit days × 2 paid properties × 2 prompts × 2 models.
    expect(lines[0]).toBe('64 answers mention the brand; the first 5:');
    expect(lines.slice(1, 6)).toHaveLength(5);
    // Newest day first: today's hits (the world's hit days are today and every other day before).
    for (const line of lines.slice(1, 6)) expect(line).toMatch(/^2026-03-15 (chatgpt|perplexity) \S+ /);
    expect(lines[6]).toMatch(/^\d+ characters of markdown$/);
    expect(lines[7]).toMatch(/^remaining this minute: \d+$/);

    const refused = await run(process.execPath, ['list-mentions.mjs'], {
      cwd: consumer,
      env: { ...env, VT_API_KEY: world.keys.revoked },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/INVALID_KEY: .* \([0-9a-f-]{36}\)/);
    expect(refused.stderr).toMatch(UUID);
  });

  // Two full tsc runs of a consumer project: seconds each on a quiet machine, more when the suite's
  // other files load both cores.
  it('[READ-30] type-checks the README’s TypeScript example against the installed package, as a consumer (NodeNext)', async () => {
    const [example] = readmeBlocks('ts');
    writeFileSync(join(consumer, 'example.ts'), example!);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        types: [],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        skipLibCheck: false,
      },
      files: ['example.ts'],
    };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig));
    const clean = await run(process.execPath, [TSC, '-p', consumer], { cwd: consumer }).then(
      () => '',
      (err: { stdout: string }) => err.stdout,
    );
    expect(clean).toBe('');

    // Not vacuous: the installed types refuse a wrong query and a path the API does not have, and
    // type the rows (a task's title is a string, not any).
    writeFileSync(
      join(consumer, 'wrong.ts'),
      `import { createReadApiClient } from '@vt/api-client';
const api = createReadApiClient('http://localhost:3000', 'vt_live_x');
await api.GET('/v1/responses', { params: { query: { limit: 'five' } } });
await api.GET('/v1/leads');
const title: number = (await api.GET('/v1/tasks')).data!.data[0]!.title;
`,
    );
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['wrong.ts'] }));
    const errors = await run(process.execPath, [TSC, '-p', consumer], { cwd: consumer }).then(
      () => '',
      (err: { stdout: string }) => err.stdout,
    );
    expect(errors).toMatch(/^wrong\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m);
    expect(errors).toMatch(/^wrong\.ts\(4,\d+\): error/m);
    expect(errors).toMatch(/^wrong\.ts\(5,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m);
  }, 120_000);
});
