import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { ROOT } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, headingsOf, readDoc, relativeLinksOf, tableOfContentsOf } from './docs-pages.ts';

// The documentation by audience (issue 26): a short README that links one page per audience, each
// page with a table of contents, and no relative link that leads nowhere.

const AUDIENCE_PAGES = [
  'docs/operators.md',
  'docs/log-shippers.md',
  'docs/read-api.md',
  'docs/webhook-senders.md',
  'docs/console.md',
  'docs/contributors.md',
];

describe('the docs by audience', () => {
  it('the README stays short: at most 250 lines', () => {
    expect(readDoc('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('the README links every page of docs/, and each audience has its page', () => {
    expect(DOC_PAGES.filter((page) => page.startsWith('docs/')).sort()).toEqual([...AUDIENCE_PAGES].sort());
    const links = relativeLinksOf(readDoc('README.md'));
    for (const page of AUDIENCE_PAGES) expect(links, page).toContain(page);
  });

  it('each docs page opens with a table of contents listing its ## and ### headings, every link resolving', () => {
    for (const page of AUDIENCE_PAGES) {
      const markdown = readDoc(page);
      const headings = headingsOf(markdown);
      const toc = tableOfContentsOf(markdown);
      const sections = headings.filter((h) => h.level === 2 || h.level === 3).map((h) => h.anchor);
      expect(toc.length, page).toBeGreaterThan(0);
      expect(
        toc.filter((item) => !headings.some((h) => h.anchor === item.anchor)),
        page,
      ).toEqual([]);
      expect(
        toc.map((item) => item.anchor),
        page,
      ).toEqual(sections);
    }
  });

  it('every relative link of the README and docs/ points at an existing file, and an anchor at a heading of it', () => {
    const broken: string[] = [];
    for (const page of DOC_PAGES) {
      for (const link of relativeLinksOf(readDoc(page))) {
        const [path = '', anchor] = link.split('#');
        const target = path ? normalize(join(dirname(page), decodeURIComponent(path))) : page;
        if (target.startsWith('..') || !existsSync(join(ROOT, target))) {
          broken.push(`${page}: ${link} (no file)`);
          continue;
        }
        if (anchor === undefined) continue;
        const isPage = target.endsWith('.md') && statSync(join(ROOT, target)).isFile();
        if (!isPage || !headingsOf(readDoc(target)).some((h) => h.anchor === anchor)) {
          broken.push(`${page}: ${link} (no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('reads anchors as GitHub makes them: lower case, punctuation but - and _ dropped, spaces to -, repeats numbered', () => {
    const headings = headingsOf(
      '# Title\n\n```sh\n# a comment, not a heading\n```\n\n## Read API (`/v1`)\n### The console’s browser_tests\n## Tests\n## Tests\n',
    );
    expect(headings.map((h) => h.anchor)).toEqual([
      'title',
      'read-api-v1',
      'the-consoles-browser_tests',
      'tests',
      'tests-1',
    ]);
  });

  it('finds links outside code only, and leaves absolute ones out', () => {
    const markdown =
      '[a](docs/a.md) ![b](screenshots/b.png) [c](#c) [d](https://example.com) `[e](e.md)`\n```\n[f](f.md)\n```\n';
    expect(relativeLinksOf(markdown)).toEqual(['docs/a.md', 'screenshots/b.png', '#c']);
  });

  it('the capacity plan traces each measured figure to a bench run: a `pnpm bench:*` script that exists, and a date', () => {
    const operators = readDoc('docs/operators.md');
    const start = operators.indexOf('\n### Capacity plan\n');
    expect(start).toBeGreaterThan(-1);
    const rest = operators.slice(start + 1);
    const end = rest.slice(4).search(/\n#{2,3} /);
    const section = end === -1 ? rest : rest.slice(0, end + 4);
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
    );
    const quoted = [...new Set([...section.matchAll(/`pnpm (bench:[a-z-]+)/g)].map((m) => m[1]!))];
    expect(quoted).toEqual(expect.arrayContaining(['bench:cluster', 'bench:ingest', 'bench:webhook']));
    expect(quoted.filter((script) => !scripts.includes(script))).toEqual([]);
    // The measured table: every row after its header names its command and the date of its runs.
    const table = section.slice(section.indexOf('| measured'));
    const rows = table.split('\n\n')[0]!.split('\n').slice(2);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((row) => !/`pnpm bench:[a-z-]+/.test(row) || !/\d{4}-\d{2}-\d{2}/.test(row))).toEqual([]);
  });
});
