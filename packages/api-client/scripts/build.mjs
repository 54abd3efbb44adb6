// `pnpm --filter @vt/api-client build` (and `pnpm pack`, through prepack): the package as users
// install it, in dist/: index.js and index.d.ts compiled by tsc (NodeNext, so the output is what
// Node and TypeScript resolve in a consumer), and the generated read-api.d.ts beside them.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(here('../dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', here('../tsconfig.build.json')], { stdio: 'inherit' });
copyFileSync(here('../src/read-api.d.ts'), here('../dist/read-api.d.ts'));
