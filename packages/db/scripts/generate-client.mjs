// Generates the Prisma client into src/generated/prisma (run by the root postinstall).
//
// The Prisma 7 CLI wants to download its native schema engine even for `generate`, which never
// uses it; these machines reach only the npm registry. Pointing PRISMA_SCHEMA_ENGINE_BINARY at
// any existing file skips the download (see docs/operators.md, "Database and migrations (Prisma offline)"). The client itself runs on
// the WASM query compiler with @prisma/adapter-pg: no native engine at run time.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

const result = spawnSync('pnpm', ['exec', 'prisma', 'generate'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);

// The generated client imports Prisma's query compiler as a module that exports its 4.4 MB of
// WebAssembly as one base64 string. A module's exports live as long as the process: that string,
// and the module's source text beside it, kept about 9 MB on every app's heap after the compiler
// was built from them. Read from the file instead, they are garbage once it is built.
const classFile = fileURLToPath(new URL('../src/generated/prisma/internal/class.ts', import.meta.url));
const imported = `    const { wasm } = await import("@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs")
    return await decodeBase64AsWasm(wasm)`;
const readOnce = `    // Read as text, not imported (packages/db/scripts/generate-client.mjs says why).
    const { readFile } = await import('node:fs/promises')
    const { createRequire } = await import('node:module')
    const file = createRequire(import.meta.url).resolve("@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs")
    const source = await readFile(file, 'utf8')
    // The module is \`const wasm = "<base64>";\` and an export: the base64 is between the quotes.
    return await decodeBase64AsWasm(source.slice(source.indexOf('"') + 1, source.lastIndexOf('"')))`;
const generated = readFileSync(classFile, 'utf8');
if (!generated.includes(imported)) {
  console.error(`generate-client: ${classFile} no longer imports the query compiler as expected; update this script`);
  process.exit(1);
}
writeFileSync(classFile, generated.replace(imported, readOnce));
