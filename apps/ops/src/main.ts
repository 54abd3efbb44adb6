import { runOpsProgram } from './cli/program.ts';
import { runDevStart } from './dev/start.ts';
import { ENV_FILE } from './env-file.ts';

const argv = process.argv.slice(2);

if (argv[0] === 'start') {
  await runDevStart(process.env);
} else {
  process.exitCode = await runOpsProgram(argv, {
    env: process.env,
    // ./.env, as `pnpm start` reads it (and writes the deployment secrets into it): what is set in
    // the environment wins over the file.
    envFile: ENV_FILE,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutStream: process.stdout,
    // Progress only when a person watches both: `ops … | jq` or `> file` gets none.
    isTerminal: Boolean(process.stdout.isTTY && process.stderr.isTTY),
    columns: process.stderr.columns,
    readStdin: async () => {
      if (process.stdin.isTTY) return '';
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      return text;
    },
  });
}
