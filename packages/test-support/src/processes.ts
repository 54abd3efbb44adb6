import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OUTBOUND_GUARD } from './outbound-log.ts';
import { ROOT } from './paths.ts';
import { testEnv } from './test-env.ts';

export { freePort } from './ports.ts';

const TSX = fileURLToPath(import.meta.resolve('tsx'));

export interface RunningProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * What runs for an entry point: an app's `apps/<app>/src/main.ts` is its compiled bundle,
 * `apps/<app>/dist/main.js`, which the run's global setup built from these sources (plain node
 * starts it in a fraction of what tsx takes to compile the app's TypeScript); a compiled entry
 * runs with plain node, as in production; any other TypeScript through tsx.
 */
export function nodeArguments(entry: string): string[] {
  const app = APP_SOURCE_ENTRY.exec(entry)?.[1];
  if (app) return [`${ROOT}apps/${app}/dist/main.js`];
  return entry.endsWith('.js') ? [entry] : ['--import', TSX, entry];
}

const APP_SOURCE_ENTRY = /^apps\/([a-z-]+)\/src\/main\.ts$/;

/** Runs an entry point of this repo (see `nodeArguments`) with this run's test env. */
export function runScript(entry: string, args: string[] = [], env: Record<string, string> = {}): RunningProcess {
  // OUTBOUND_LOG: record the process's every connection and name lookup there (SVC-1 at run time).
  const guard = env.OUTBOUND_LOG ? ['--import', OUTBOUND_GUARD] : [];
  const child = spawn(process.execPath, [...guard, ...nodeArguments(entry), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...testEnv, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Polls a URL until it answers 200 or the deadline passes. */
export async function waitForOk(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An app process that has bound its port and answers /readyz. */
export interface RunningApp extends RunningProcess {
  port: number;
  url: string;
}

/**
 * Starts an app of this repo with its port variable set to 0: it binds a port of the system's
 * choosing and logs it, and this resolves with that port once /readyz answers 200. Unlike a port
 * found free and then handed over, no other process can take it in between.
 */
export async function startApp(
  entry: string,
  portVariable: string,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<RunningApp> {
  const proc = runScript(entry, [], { HOST: '127.0.0.1', ...env, [portVariable]: '0' });
  const port = await loggedPort(proc, timeoutMs);
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/readyz`, timeoutMs);
  return { ...proc, port, url };
}

/** The port in the app's start line (`… listening` or `… started`, with `port`). */
function loggedPort(proc: RunningProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => fail(new Error(`no start line within ${timeoutMs} ms`)), timeoutMs);
    const onData = () => {
      const text = proc.stdout();
      const lines = text.slice(seen).split('\n');
      // The last piece may be an unfinished line: read it again with the next chunk.
      seen = text.length - (lines.at(-1)?.length ?? 0);
      for (const line of lines.slice(0, -1)) {
        const port = startLinePort(line);
        if (port !== undefined) {
          done();
          return resolve(port);
        }
      }
    };
    const onExit = (code: number | null) =>
      fail(
        new Error(`exited with ${code} before listening:\n${proc.stderr().slice(-2000)}${proc.stdout().slice(-2000)}`),
      );
    const done = () => {
      clearTimeout(timer);
      proc.child.stdout?.off('data', onData);
      proc.child.off('exit', onExit);
    };
    const fail = (err: Error) => {
      done();
      reject(err);
    };
    proc.child.stdout?.on('data', onData);
    proc.child.once('exit', onExit);
    onData();
  });
}

function startLinePort(line: string): number | undefined {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; port?: unknown };
    const starts = typeof entry.msg === 'string' && /(listening|started)$/.test(entry.msg);
    return starts && typeof entry.port === 'number' && entry.port > 0 ? entry.port : undefined;
  } catch {
    return undefined;
  }
}
