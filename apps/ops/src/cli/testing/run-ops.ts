import { testEnv } from '@vt/test-support';
import { runOpsProgram } from '../program.ts';

/** Runs `ops <args> --json` in-process against this run's database; the exit code and the one JSON object. */
export async function ops(...args: string[]) {
  let out = '';
  let err = '';
  const code = await runOpsProgram([...args, '--json'], {
    env: { ...testEnv, PUBLIC_INGEST_URL: 'https://ingest.example.test' },
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
  });
  const lines = out.trim().split('\n').filter(Boolean);
  // biome-ignore lint/suspicious/noExplicitAny: a JSON object as printed
  return { code, json: (lines.length === 1 ? JSON.parse(lines[0]!) : { lines, err }) as any };
}
