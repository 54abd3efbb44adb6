import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, readDoc } from './docs-pages.ts';

// The shape of the workspace, checked: packages never import an app, dependencies have no cycle,
// every package imports only what it declares and declares only what it imports, and no file
// reaches into another package by a relative path.

interface Workspace {
  name: string;
  dir: string;
  kind: 'app' | 'package';
  declared: string[];
}

const workspaces: Workspace[] = ['apps', 'packages'].flatMap((kind) =>
  readdirSync(join(ROOT, kind)).map((name) => {
    const dir = join(ROOT, kind, name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return {
      name: manifest.name as string,
      dir,
      kind: kind === 'apps' ? ('app' as const) : ('package' as const),
      declared: Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }),
    };
  }),
);
const byName = new Map(workspaces.map((w) => [w.name, w]));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry === 'generated') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs)$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports, statically or dynamically, or resolves. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  // `require('…')` too: a JSON file a module reads through createRequire is a dependency as well.
  const found = text.matchAll(
    /(?:from\s+|import\s*\(\s*|import\s+|import\.meta\.resolve\(\s*|\brequire\(\s*)'([^']+)'/g,
  );
  return [...found].map((m) => m[1]!);
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

// Declared but never imported by name, for good reasons: types packages, the client the generated
// Prisma code imports, and tools run by path or by a script rather than imported.
const USED_WITHOUT_IMPORT = new Set(['@prisma/client', 'prisma', 'swagger-ui-dist']);

// The tools every workspace's tests and scripts run on, declared once, at the root.
const ROOT_TOOLS = new Set(['vitest', 'supertest', 'tsx']);

describe('the workspace', () => {
  it('no package depends on an app', () => {
    const offending = workspaces
      .filter((w) => w.kind === 'package')
      .flatMap((w) => w.declared.filter((d) => byName.get(d)?.kind === 'app').map((d) => `${w.name} → ${d}`));
    expect(offending).toEqual([]);
  });

  it('workspace dependencies have no cycle', () => {
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' → '));
        return;
      }
      for (const dep of byName.get(name)?.declared ?? []) if (byName.has(dep)) visit(dep, [...path, name]);
    };
    for (const w of workspaces) visit(w.name, []);
    expect(cycles).toEqual([]);
  });

  it('each workspace imports only what it declares, and declares only what it imports', () => {
    const problems: string[] = [];
    for (const w of workspaces) {
      const imported = new Set(
        sourceFiles(w.dir)
          .flatMap(specifiers)
          .filter((s) => !s.startsWith('.') && !s.startsWith('node:'))
          .map(packageOf),
      );
      for (const dep of imported) {
        // A types-only module (`mdast`) is declared as its @types package.
        const declared = w.declared.includes(dep) || w.declared.includes(`@types/${dep}`);
        if (!declared && !ROOT_TOOLS.has(dep)) problems.push(`${w.name} imports ${dep} undeclared`);
      }
      for (const dep of w.declared) {
        if (dep.startsWith('@types/') || USED_WITHOUT_IMPORT.has(dep) || imported.has(dep)) continue;
        problems.push(`${w.name} declares ${dep}, never imported`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('no relative import leaves its own workspace', () => {
    const escaping = workspaces.flatMap((w) =>
      sourceFiles(w.dir).flatMap((file) =>
        specifiers(file)
          .filter((s) => s.startsWith('.'))
          .filter((s) => relative(w.dir, resolve(dirname(file), s)).startsWith('..'))
          .map((s) => `${relative(ROOT, file)}: ${s}`),
      ),
    );
    expect(escaping).toEqual([]);
  });

  it('every path the README or a docs/ page names under apps/, packages/, prisma/, bench/ or tests/ exists', () => {
    const docs = DOC_PAGES.map(readDoc).join('\n');
    const paths = [...docs.matchAll(/`((?:apps|packages|prisma|bench|tests)\/[^`\s]*)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(20);
    // Build output (`…/dist`) exists only once built: its name is checked by the build, not here.
    const missing = paths.filter(
      (p) => !p.includes('<') && !/\/dist\/?$/.test(p) && !existsSync(join(ROOT, p.replace(/\/$/, ''))),
    );
    expect(missing).toEqual([]);
  });
});
