import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateReadApiTypes, READ_API_TYPES_PATH } from '../src/api-client-types.ts';

// `pnpm api-client:generate`: rewrites src/read-api.d.ts from the read API's OpenAPI document.
// `pnpm api-client:check` (`--check`): writes nothing, and exits 1 when the committed file is not
// what the document gives now. `--types <file>` checks or writes another file.

const args = process.argv.slice(2);
const check = args.includes('--check');
const typesFlag = args.indexOf('--types');
const target = typesFlag === -1 ? fileURLToPath(READ_API_TYPES_PATH) : args[typesFlag + 1];
if (!target) {
  console.error('usage: generate-api-client-types.ts [--check] [--types <file>]');
  process.exit(2);
}

const generated = await generateReadApiTypes();
if (check) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== generated) {
    console.error(`${target} is out of date with the OpenAPI document: run \`pnpm api-client:generate\``);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else {
  await writeFile(target, generated);
  console.log(`wrote ${target}`);
}
