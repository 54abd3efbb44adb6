import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CONSOLE_API_TYPES_PATH, generateConsoleApiTypes } from '../src/web/console-api-types.ts';

// `pnpm console-client:generate`: rewrites web/src/console-api.d.ts from the console's OpenAPI document.
// `pnpm console-client:check` (`--check`): writes nothing, and exits 1 when the committed file is not
// what the document gives now. `--types <file>` checks or writes another file.

const args = process.argv.slice(2);
const check = args.includes('--check');
const typesFlag = args.indexOf('--types');
const target = typesFlag === -1 ? fileURLToPath(CONSOLE_API_TYPES_PATH) : args[typesFlag + 1];
if (!target) {
  console.error('usage: generate-web-api-types.ts [--check] [--types <file>]');
  process.exit(2);
}

const generated = await generateConsoleApiTypes();
if (check) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== generated) {
    console.error(`${target} is out of date with the console's OpenAPI document: run \`pnpm console-client:generate\``);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else {
  await writeFile(target, generated);
  console.log(`wrote ${target}`);
}
