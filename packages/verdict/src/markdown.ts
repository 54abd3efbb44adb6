import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';

/** A half-open range of UTF-16 offsets into the answer's markdown. */
export type Span = [start: number, end: number];

export interface ParsedAnswer {
  /** Ranges no mention may touch: link and image targets, bare URLs, reference definitions, raw HTML. */
  urlSpans: Span[];
  /** Every link target in the answer, in order of appearance (bare URLs and autolinks included). */
  links: string[];
  /** The answer as plain text (markdown, tables, code fences and link syntax stripped), one line per block; bare URLs stay. */
  plainText: string;
  /** Where the bare URLs and email addresses are in the plain text. */
  plainUrlSpans: Span[];
}

/** A URL or an email address as it reads in plain text. */
const PLAIN_URL = /(?:https?:\/\/|www\.)\S+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}+/gu;
/** Punctuation that ends a sentence, not the URL before it (as GitHub reads bare URLs). */
const TRAILING_PUNCTUATION = /[.,:;!?'")\]*_~]+$/;

const start = (node: Nodes) => node.position?.start.offset ?? 0;
const end = (node: Nodes) => node.position?.end.offset ?? 0;

/** A link whose visible text is its own URL (`<https://…>`, or a bare URL under GFM). */
function isUrlLiteral(node: Nodes & { type: 'link' }, markdown: string): boolean {
  const text = markdown.slice(start(node), end(node)).replace(/^<|>$/g, '');
  return (
    text === node.url ||
    node.url === `mailto:${text}` ||
    node.url === `http://${text}` ||
    /^(?:https?:\/\/|www\.)/i.test(text)
  );
}

/**
 * Reads an answer's markdown (CommonMark with GitHub's tables and bare URLs) once: where its
 * URLs are, which links it cites, and its plain text. Link text stays visible text (a mention);
 * a URL never is, wherever it appears.
 */
export function parseAnswer(markdown: string): ParsedAnswer {
  const tree: Root = fromMarkdown(markdown, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] });
  const urlSpans: Span[] = [];
  const links: string[] = [];
  const blocks: string[] = [];

  // Bare URLs and email addresses in prose (GitHub links them; the GFM autolink extension costs
  // as much again as the rest of the parse, so they are found here, on the text's own source).
  const bareUrls = (node: Nodes) => {
    const from = start(node);
    for (const match of markdown.slice(from, end(node)).matchAll(PLAIN_URL)) {
      const text = match[0].replace(TRAILING_PUNCTUATION, '');
      urlSpans.push([from + match.index, from + match.index + text.length]);
      if (/^https?:\/\//i.test(text)) links.push(text);
      else if (/^www\./i.test(text)) links.push(`http://${text}`);
    }
  };

  const inline = (node: Nodes): string => {
    switch (node.type) {
      case 'text':
        bareUrls(node);
        return node.value;
      case 'inlineCode':
        return node.value;
      case 'link': {
        links.push(node.url);
        if (isUrlLiteral(node, markdown)) {
          urlSpans.push([start(node), end(node)]);
          return markdown.slice(start(node), end(node)).replace(/^<|>$/g, '');
        }
        // The text is visible; the brackets, the target and its title are not.
        const children = node.children;
        const textStart = children.length ? start(children[0] as Nodes) : end(node);
        const textEnd = children.length ? end(children[children.length - 1] as Nodes) : end(node);
        urlSpans.push([start(node), textStart], [textEnd, end(node)]);
        return children.map(inline).join('');
      }
      case 'image':
      case 'imageReference':
      case 'html':
        urlSpans.push([start(node), end(node)]);
        return '';
      case 'break':
        return ' ';
      default:
        return 'children' in node ? (node.children as Nodes[]).map(inline).join('') : '';
    }
  };

  const block = (node: Nodes): void => {
    switch (node.type) {
      case 'definition':
        links.push(node.url);
        urlSpans.push([start(node), end(node)]);
        return;
      case 'html':
        urlSpans.push([start(node), end(node)]);
        return;
      case 'code':
        // Code is kept for matching but left out of the plain text: it makes a poor excerpt.
        return;
      case 'paragraph':
      case 'heading':
        blocks.push(inline(node));
        return;
      case 'table':
        for (const row of node.children) blocks.push(row.children.map((cell) => inline(cell).trim()).join(' · '));
        return;
      case 'thematicBreak':
        return;
      default:
        if ('children' in node) for (const child of node.children as Nodes[]) block(child);
    }
  };
  block(tree);

  const plainText = blocks
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  const plainUrlSpans = [...plainText.matchAll(PLAIN_URL)].map((m): Span => [m.index, m.index + m[0].length]);
  return { urlSpans: mergeSpans(urlSpans), links, plainText, plainUrlSpans };
}

function mergeSpans(spans: Span[]): Span[] {
  const sorted = spans.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}
