// pnpm build: every app as one JavaScript file, apps/<app>/dist/main.js, run with plain node.
//
// The workspace's own TypeScript (apps/*/src, packages/*/src) is bundled; every npm package stays
// an import, written as the path of the file it resolves to through the importing package's own
// node_modules (pnpm's symlinks, stable from one install to the next, dev or production), so the
// bundle needs no hoisting and loads each package once, as the sources would. `import.meta.url`
// in a bundled source file is rewritten to that file's own place, so the paths it builds (the
// migrations, the agent catalogue, the console's web UI) are found as when the sources run.
//
// Options: --app NAME (one app; repeatable), --watch is not offered: development runs the sources.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { app: { type: 'string', multiple: true } } });
const apps =
  values.app ?? readdirSync(join(ROOT, 'apps')).filter((app) => existsSync(join(ROOT, 'apps', app, 'src', 'main.ts')));

const posix = (path) => path.split(sep).join('/');
const relativeImport = (fromDir, file) => {
  const path = posix(relative(fromDir, file));
  return path.startsWith('.') ? path : `./${path}`;
};

/** The package a bare specifier names: `pg`, `@prisma/client` of `@prisma/client/runtime/client`. */
const packageName = (specifier) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/');

/** The workspace package (apps/<a> or packages/<p>) a source file belongs to. */
const workspacePackageOf = (file) => {
  const [area, name] = posix(relative(ROOT, file)).split('/');
  return area === 'apps' || area === 'packages' ? join(ROOT, area, name) : null;
};

/** What a production install links into a workspace package's node_modules. */
const runtimeDependencies = (packageDir) => {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  return new Set(
    ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {})),
  );
};

/**
 * npm packages stay imports, by the path of the file they resolve to through the importing
 * workspace package's own node_modules link: Node then loads each package once (it follows the
 * link), and the path holds in a production install, which links every package's dependencies.
 */
const externalPackages = (outDir) => ({
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:') || args.path.startsWith('@vt/')) return undefined;
      if (args.pluginData === 'resolving') return undefined;
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external) return { path: args.path, external: true }; // a Node built-in
      const owner = workspacePackageOf(args.importer);
      const name = packageName(args.path);
      const link = owner && join(owner, 'node_modules', name);
      if (!owner || !runtimeDependencies(owner).has(name) || !existsSync(link)) {
        const text = `${relative(ROOT, args.importer)} imports ${name}, which is not among its package's dependencies (a production install would not have it)`;
        return { errors: [{ text }] };
      }
      const file = join(link, relative(realpathSync(link), resolved.path));
      return { path: relativeImport(outDir, file), external: true };
    });
  },
});

/** `import.meta.url` of a bundled source file means that file, not the bundle. */
const ownImportMetaUrl = (outDir) => ({
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const own = `new URL(${JSON.stringify(relativeImport(outDir, args.path))}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', own), loader: 'ts' };
    });
  },
});

const started = performance.now();
await Promise.all(
  apps.map((app) => {
    const outDir = join(ROOT, 'apps', app, 'dist');
    return build({
      entryPoints: [join(ROOT, 'apps', app, 'src', 'main.ts')],
      outfile: join(outDir, 'main.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      // Class and function names stay as written: they name errors and log lines.
      keepNames: true,
      logLevel: 'warning',
      plugins: [externalPackages(outDir), ownImportMetaUrl(outDir)],
    });
  }),
);
process.stdout.write(
  `built ${apps.map((app) => `apps/${app}/dist/main.js`).join(', ')} in ${Math.round(performance.now() - started)} ms\n`,
);
