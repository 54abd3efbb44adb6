import { runDevStart } from './dev-start.ts';
import { runOpsProgram } from './program.ts';

const argv = process.argv.slice(2);

if (argv[0] === 'start') {
  await runDevStart(process.env);
} else {
  process.exitCode = await runOpsProgram(argv, {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
