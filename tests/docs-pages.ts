import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';

// The README and the pages of docs/, read as GitHub renders them: which headings a page has, under
// which anchors, and where its relative links point. Plain functions over the text (no vitest), so a
// script can use them too.

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every documentation page, as a path from the repository's root: README.md, then docs/*.md. */
export const DOC_PAGES = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

export const readDoc = (page: string): string => readFileSync(`${ROOT}${page}`, 'utf8');

/** The page with every fenced code block's lines emptied: what is prose and headings, line for line. */
export function proseOf(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

export type Heading = { level: number; text: string; anchor: string };

/** The page's headings in order, each with the anchor GitHub gives it (repeats get `-1`, `-2`, …). */
export function headingsOf(markdown: string): Heading[] {
  const slugger = new GithubSlugger();
  return [...proseOf(markdown).matchAll(/^(#{1,6}) +(.+?) *#* *$/gm)].map((m) => {
    const text = m[2]!;
    // GitHub slugs the rendered text: inline code keeps its content, loses its backticks.
    return { level: m[1]!.length, text, anchor: slugger.slug(text.replaceAll('`', '')) };
  });
}

/** Every link of the page that is neither absolute nor inside code: `[text](target)` and images. */
export function relativeLinksOf(markdown: string): string[] {
  const prose = proseOf(markdown).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]\n]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/**
 * The page's table of contents: the list that follows its opening paragraph under the title, as
 * `[text](#anchor)` items, or [] when the page has none there.
 */
export function tableOfContentsOf(markdown: string): { text: string; anchor: string }[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line, i) => i > 0 && /^\s*- \[/.test(line));
  const firstSection = lines.findIndex((line) => /^##+ /.test(line));
  if (start < 0 || (firstSection >= 0 && start > firstSection)) return [];
  const items: { text: string; anchor: string }[] = [];
  for (const line of lines.slice(start)) {
    const item = /^\s*- \[(.+)\]\(#([^)]+)\)$/.exec(line);
    if (!item) break;
    items.push({ text: item[1]!, anchor: item[2]! });
  }
  return items;
}
