import { readdirSync, readFileSync } from 'node:fs';
import { ROOT } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { configReference, embeddedConfigReference } from '../apps/ops/src/cli/commands/docs-config.ts';

const readme = readFileSync(`${ROOT}README.md`, 'utf8');
const rootPackage = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));

describe('README', () => {
  it('its configuration table equals the one generated from the apps’ config schemas (pnpm docs:config)', () => {
    expect(embeddedConfigReference(readme)).toBe(configReference().trim());
  });

  it('gives the two quickstart commands, and they are the package scripts', () => {
    expect(readme).toContain('pnpm install && pnpm start');
    expect(readme).toContain('pnpm test');
    expect(rootPackage.scripts.start).toBeDefined();
    expect(rootPackage.scripts.test).toContain('vitest run');
  });

  it('says why each direct dependency is there', () => {
    const names = new Set<string>([...Object.keys(rootPackage.devDependencies)]);
    for (const dir of ['apps', 'packages']) {
      for (const pkg of readdirSync(`${ROOT}${dir}`)) {
        const manifest = JSON.parse(readFileSync(`${ROOT}${dir}/${pkg}/package.json`, 'utf8'));
        for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) names.add(name);
      }
    }
    const table = readme.slice(readme.indexOf('## Dependencies and why'));
    const undocumented = [...names].filter(
      (name) => !name.startsWith('@vt/') && !name.startsWith('@types/') && !table.includes(name),
    );
    expect(undocumented).toEqual([]);
  });
});
