import { testEnv } from '@vt/test-support';
import { runOpsProgram } from '../program.ts';

/** Runs `ops <args> --json` in-process against this run's database; the exit code and the one JSON object. */
export async function ops(...args: string[]) {
  return opsWithStdin(undefined, ...args);
}

/** As `ops`, with `stdin` piped in (undefined: nothing piped). */
export async function opsWithStdin(stdin: string | undefined, ...args: string[]) {
  return opsWith({ stdin }, ...args);
}

/** As `ops`, with these variables over the test environment (a deployment setting a test is about). */
export async function opsWithEnv(env: Record<string, string>, ...args: string[]) {
  return opsWith({ env }, ...args);
}

/** As `ops`, with variables over the test environment (another database, a secret unset with '') and stdin. */
export async function opsWith(
  { env = {}, stdin }: { env?: Record<string, string>; stdin?: string },
  ...args: string[]
) {
  let out = '';
  let err = '';
  const code = await runOpsProgram([...args, '--json'], {
    env: { ...testEnv, PUBLIC_INGEST_URL: 'https://ingest.example.test', ...env },
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
  });
  const lines = out.trim().split('\n').filter(Boolean);
  // biome-ignore lint/suspicious/noExplicitAny: a JSON object as printed
  return { code, json: (lines.length === 1 ? JSON.parse(lines[0]!) : { lines, err }) as any };
}
