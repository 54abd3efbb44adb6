// pnpm test:durations — writes tests/file-durations.json, each test file's duration in seconds,
// from vitest's cache of the runs made in this checkout (node_modules/.vite/vitest/*/results.json).
// Run it after a whole `pnpm test` on the reference machine: the suites' sequencer starts the
// longest files first on a fresh clone, which has no cache (packages/test-support/src/duration-sequencer.ts).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, 'node_modules/.vite/vitest');
const durations = {};
for (const entry of existsSync(cacheDir) ? readdirSync(cacheDir) : []) {
  const file = path.join(cacheDir, entry, 'results.json');
  if (!existsSync(file)) continue;
  for (const [key, result] of JSON.parse(readFileSync(file, 'utf8')).results) {
    const testFile = key.slice(key.indexOf(':') + 1);
    if (existsSync(path.join(root, testFile)) && !result.failed) {
      durations[testFile] = Math.round(result.duration / 100) / 10;
    }
  }
}
const files = Object.keys(durations).sort((a, b) => durations[b] - durations[a]);
if (files.length === 0) {
  process.stderr.write('no test results in node_modules/.vite/vitest: run pnpm test first\n');
  process.exit(1);
}
const out = path.join(root, 'tests/file-durations.json');
writeFileSync(out, `${JSON.stringify(Object.fromEntries(files.map((f) => [f, durations[f]])), null, 2)}\n`);
process.stdout.write(`wrote ${files.length} files' durations to ${path.relative(root, out)}\n`);
