import { runOpsProgram } from './cli/program.ts';
import { runDevStart } from './dev/start.ts';

const argv = process.argv.slice(2);

if (argv[0] === 'start') {
  await runDevStart(process.env);
} else {
  process.exitCode = await runOpsProgram(argv, {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTerminal: process.stderr.isTTY,
  });
}
