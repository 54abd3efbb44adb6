import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every app imports this package; only the read API and the console serve the API reference. The
// Swagger UI bundle (1.5 MB of JavaScript) must not be loaded into the others' memory.

const TSX = fileURLToPath(import.meta.resolve('tsx'));
const PACKAGE = fileURLToPath(new URL('./index.ts', import.meta.url));

describe('the API reference', () => {
  it('does not load the Swagger UI bundle into a process that imports the service runtime', () => {
    const script = `
      await import(${JSON.stringify(PACKAGE)});
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ modules: loaded.length, swagger: loaded.filter((m) => m.includes('swagger-ui')) }));`;
    const out = execFileSync(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const { modules, swagger } = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(modules).toBeGreaterThan(10);
    expect(swagger).toEqual([]);
  });
});
