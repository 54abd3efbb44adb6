import { readdirSync, readFileSync, statSync } from 'node:fs';
import { ROOT } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { configReference, embeddedConfigReference } from '../apps/ops/src/cli/commands/docs-config.ts';
import { opsCommandPaths } from '../apps/ops/src/cli/program.ts';
import { DOC_PAGES, readDoc } from './docs-pages.ts';

// The README and the docs/ pages its sections moved to, each checked where its readers find it.
const readme = readFileSync(`${ROOT}README.md`, 'utf8');
const operators = readFileSync(`${ROOT}docs/operators.md`, 'utf8');
const logShippers = readFileSync(`${ROOT}docs/log-shippers.md`, 'utf8');
const contributors = readFileSync(`${ROOT}docs/contributors.md`, 'utf8');
const docs = DOC_PAGES.map(readDoc);
const rootPackage = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));

describe('README and docs/', () => {
  it('the operators’ configuration table equals the one generated from the apps’ config schemas (pnpm docs:config)', () => {
    expect(embeddedConfigReference(operators)).toBe(configReference().trim());
  });

  it('gives the two quickstart commands, and they are the package scripts', () => {
    expect(readme).toContain('pnpm install && pnpm start');
    expect(readme).toContain('pnpm test');
    expect(rootPackage.scripts.start).toBeDefined();
    expect(rootPackage.scripts.test).toContain('vitest run');
  });

  it('the contributors’ page says why each direct dependency is there', () => {
    const names = new Set<string>([...Object.keys(rootPackage.devDependencies)]);
    for (const dir of ['apps', 'packages']) {
      for (const pkg of readdirSync(`${ROOT}${dir}`)) {
        const manifest = JSON.parse(readFileSync(`${ROOT}${dir}/${pkg}/package.json`, 'utf8'));
        for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) names.add(name);
      }
    }
    const table = contributors.slice(contributors.indexOf('## Dependencies and why'));
    const undocumented = [...names].filter(
      (name) => !name.startsWith('@vt/') && !name.startsWith('@types/') && !table.includes(name),
    );
    expect(undocumented).toEqual([]);
  });

  it('mints ids with what stock Debian has: no uuidgen in the README, the docs or the recipes', () => {
    const recipes = readdirSync(`${ROOT}deploy/shippers`, { recursive: true, encoding: 'utf8' }).map((f) =>
      statSync(`${ROOT}deploy/shippers/${f}`).isDirectory() ? '' : readFileSync(`${ROOT}deploy/shippers/${f}`, 'utf8'),
    );
    expect([...docs, ...recipes].filter((text) => text.includes('uuidgen'))).toEqual([]);
    expect(logShippers).toContain('$(cat /proc/sys/kernel/random/uuid)');
  });

  it('the log shippers’ page links every recipe, and says which were run and which only checked against a schema', () => {
    const section = logShippers.slice(
      logShippers.indexOf('### Log-shipper recipes'),
      logShippers.indexOf('### The AI agent catalogue'),
    );
    const files = readdirSync(`${ROOT}deploy/shippers`, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.(conf|sh|ya?ml)$/.test(f),
    );
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) expect(section).toContain(`](../deploy/shippers/${file})`);
    const rows = section.split('\n').filter((line) => line.startsWith('| ['));
    const testedAs = (name: string) =>
      rows
        .find((row) => row.includes(`deploy/shippers/${name}`))
        ?.split('|')
        .at(-2);
    for (const name of ['nginx/', 'apache/', 'ship-crawl-log.sh']) expect(testedAs(name)).toContain('run here');
    for (const name of ['vector/', 'fluent-bit/', 'filebeat/']) {
      expect(testedAs(name)).toContain('checked against the documented schema, not run here');
    }
  });

  it('the architecture diagram names every app, and the shared pieces they go through', () => {
    const section = contributors.slice(
      contributors.indexOf('## Architecture'),
      contributors.indexOf('Each app is its own process'),
    );
    const diagram = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    for (const app of readdirSync(`${ROOT}apps`)) expect(diagram, app).toContain(app === 'ops' ? 'ops (CLI)' : app);
    for (const word of ['Redis', 'Postgres', 'AI platforms', 'Prometheus', 'GET /metrics'])
      expect(diagram).toContain(word);
    // Nothing samples: the gateway classifies and keeps, the workers count and store.
    expect(diagram).not.toMatch(/sampl/i);
  });

  it('the contributors’ page says what each package builds on: exactly its package.json dependencies', () => {
    const rows = contributors.split('\n').filter((line) => line.startsWith('| `packages/'));
    expect(rows.length).toBe(readdirSync(`${ROOT}packages`).length);
    for (const row of rows) {
      const cells = row.split(' | ');
      const name = /`packages\/([a-z-]+)`/.exec(cells[0]!)?.[1];
      const manifest = JSON.parse(readFileSync(`${ROOT}packages/${name}/package.json`, 'utf8'));
      const declared = Object.keys(manifest.dependencies ?? {})
        .filter((d) => d.startsWith('@vt/'))
        .map((d) => d.slice(4))
        .sort();
      const written = [...(cells.at(-1) ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]).sort();
      expect(written, `packages/${name}`).toEqual(declared);
    }
  });

  it('the operators’ table of ops commands lists every command the CLI has, and no other', () => {
    const start = operators.indexOf('## Operator CLI');
    const section = operators.slice(start, operators.indexOf('Decisions where the spec is silent', start));
    const listed = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => {
        // `crawl status\|log --property ID` → crawl status, crawl log
        const all = (/^\| `([^`]*)`/.exec(line)?.[1] ?? '').split(' ');
        const firstOption = all.findIndex((w) => !/^[a-z]/.test(w));
        const words = firstOption === -1 ? all : all.slice(0, firstOption);
        return words.reduce<string[]>(
          (paths, word) => paths.flatMap((p) => word.split('\\|').map((w) => (p ? `${p} ${w}` : w))),
          [''],
        );
      });
    expect(listed.sort()).toEqual(opsCommandPaths().sort());
  });
});
