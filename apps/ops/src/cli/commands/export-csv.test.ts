import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createConsoleHarness } from '@vt/console/testing';
import { BOM, parseCsv, seedExportRows } from '@vt/exports/testing';
import { nodeArguments, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsProgram } from '../program.ts';

// `ops export <kind>`: the console's CSV exports from the command line, the very bytes the console
// sends (the real compiled CLI beside the real console app), to stdout or whole to a file, and
// every bad option refused with its documented error before anything is written.

const h = createConsoleHarness();
const dir = mkdtempSync(join(tmpdir(), 'vt-export-'));
let propertyId = '';
let ownerToken = '';
let teamId = '';
beforeAll(async () => {
  const owner = await h.signUp('export-owner');
  ownerToken = owner.token;
  ({ teamId } = await h.teamOf(owner));
  const created = await h.as(owner.token, teamId).post('/api/properties', {
    name: 'Acme Analytics',
    domain: 'acme.example',
    plan: 'growth',
  });
  propertyId = created.body.property.id;
  await seedExportRows(h.db, propertyId);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.close();
});

const RANGE = ['--from', '2026-04-01', '--to', '2026-04-02'];

/** `ops <args>` in-process: the exit code, stdout's bytes and stderr's text. */
async function ops(...args: string[]) {
  const out: Buffer[] = [];
  let err = '';
  const code = await runOpsProgram(args, {
    env: { ...testEnv },
    stdout: (text) => out.push(Buffer.from(text)),
    stderr: (text) => {
      err += text;
    },
    stdoutStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  });
  return { code, stdout: Buffer.concat(out), stderr: err };
}

/** The compiled CLI as an operator runs it, stdout as bytes. */
function opsProcess(...args: string[]) {
  return new Promise<{ code: number; stdout: Buffer; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...nodeArguments('apps/ops/src/main.ts'), ...args],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: testEnv.DATABASE_URL, REDIS_URL: testEnv.REDIS_URL },
        encoding: 'buffer',
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr: stderr.toString('utf8') }),
    );
  });
}

describe('ops export', () => {
  // Four runs of the compiled CLI, side by side: a few seconds on a quiet machine, more under the
  // suite's load.
  it('writes to stdout the very bytes the console sends, for every kind', async () => {
    const kinds = ['answers', 'crawlers', 'referrals', 'leads'];
    const clis = await Promise.all(kinds.map((kind) => opsProcess('export', kind, '--property', propertyId, ...RANGE)));
    for (const [i, kind] of kinds.entries()) {
      const console = await h
        .as(ownerToken, teamId)
        .get(`/api/properties/${propertyId}/exports/${kind}?from=2026-04-01&to=2026-04-02`)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(console.status, kind).toBe(200);
      const cli = clis[i]!;
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stderr).toBe('');
      expect(cli.stdout.equals(console.body as Buffer), kind).toBe(true);
    }
  }, 90_000);

  it('writes --out whole and prints what it wrote; a failed export leaves no file', async () => {
    const file = join(dir, 'answers.csv');
    const written = await ops('export', 'answers', '--property', propertyId, ...RANGE, '--out', file, '--json');
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(written.stdout.toString('utf8'))).toEqual({
      kind: 'answers',
      propertyId,
      from: '2026-04-01',
      to: '2026-04-02',
      file,
      rows: 3,
    });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`${BOM}Date,Platform,Prompt,`)).toBe(true);
    expect(parseCsv(text)).toHaveLength(4);
    const toStdout = await ops('export', 'answers', '--property', propertyId, ...RANGE);
    expect(toStdout.stdout.toString('utf8')).toBe(text);

    const nowhere = join(dir, 'no-such-dir', 'leads.csv');
    const failed = await ops('export', 'leads', '--property', propertyId, ...RANGE, '--out', nowhere, '--json');
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout.toString('utf8')).error.code).toBe('export_failed');
    expect(existsSync(nowhere)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('reports a failure once the CSV has begun on stderr, never after the CSV on stdout', async () => {
    // stdout closes after its first chunk, as a pipe into `head -c 3` does.
    const out: Buffer[] = [];
    let err = '';
    const code = await runOpsProgram(['export', 'leads', '--property', propertyId, ...RANGE, '--json'], {
      env: { ...testEnv },
      stdout: (text) => out.push(Buffer.from(text)),
      stderr: (text) => {
        err += text;
      },
      stdoutStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (out.length) return done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
          out.push(chunk);
          done();
        },
      }),
    });
    expect(code).toBe(1);
    const stdout = Buffer.concat(out).toString('utf8');
    expect(stdout.startsWith(BOM)).toBe(true);
    expect(stdout).not.toContain('export_failed');
    expect(JSON.parse(err)).toEqual({
      error: { code: 'export_failed', message: expect.stringContaining('the output is incomplete') },
    });
  });

  it('refuses an unknown kind, a bad or reversed or too long range, and an unknown property, writing nothing', async () => {
    const cases: [string[], number, string, string][] = [
      [['export', 'tasks', '--property', propertyId, ...RANGE], 2, 'usage_error', 'tasks'],
      [
        ['export', 'answers', '--property', propertyId, '--from', '2026-02-30', '--to', '2026-03-01'],
        2,
        'invalid_argument',
        '--from',
      ],
      [
        ['export', 'answers', '--property', propertyId, '--from', '2026-04-02', '--to', '2026-04-01'],
        2,
        'invalid_argument',
        'after',
      ],
      [
        ['export', 'answers', '--property', propertyId, '--from', '2025-01-01', '--to', '2026-01-02'],
        2,
        'invalid_argument',
        '366',
      ],
      [['export', 'answers', '--property', propertyId, '--from', '2026-04-01'], 2, 'usage_error', '--to'],
      [['export', 'leads', '--property', 'not-a-property', ...RANGE], 1, 'property_not_found', 'not-a-property'],
    ];
    for (const [args, code, error, mentions] of cases) {
      const res = await ops(...args, '--json');
      expect(res.code, args.join(' ')).toBe(code);
      const answer = JSON.parse(res.stdout.toString('utf8'));
      expect(answer.error.code, args.join(' ')).toBe(error);
      expect(answer.error.message).toContain(mentions);
    }
  });
});
