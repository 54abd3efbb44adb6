// Generates the Prisma client into src/generated/prisma (run by the root postinstall).
//
// The Prisma 7 CLI wants to download its native schema engine even for `generate`, which never
// uses it; these machines reach only the npm registry. Pointing PRISMA_SCHEMA_ENGINE_BINARY at
// any existing file skips the download (see README, "Prisma offline"). The client itself runs on
// the WASM query compiler with @prisma/adapter-pg: no native engine at run time.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

const result = spawnSync('pnpm', ['exec', 'prisma', 'generate'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
