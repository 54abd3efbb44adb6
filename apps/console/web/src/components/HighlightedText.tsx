import { Fragment, type ReactNode } from 'react';

export interface Highlight {
  start: number;
  end: number;
  kind: 'brand' | 'competitor';
  name: string;
}

/** `**bold**` on one line: the spans of its two markers, which are not shown, and of its text. */
const BOLD = /\*\*(?=\S)[^\n]*?\S\*\*/g;

/**
 * An answer's text with the brand's and the competitors' names marked, built as React nodes from
 * the API's offsets: the text is only ever a text node, so nothing in an answer can become markup.
 * Answers are markdown; of it only `**bold**` is rendered (its markers hidden), the rest shows as
 * written. Offsets are UTF-16 indexes, as JavaScript strings count them; overlapping or
 * out-of-range spans (the text edited since, say) are skipped rather than trusted.
 */
export function HighlightedText({ text, highlights }: { text: string; highlights: readonly Highlight[] }) {
  const marks: Highlight[] = [];
  for (const h of [...highlights].sort((a, b) => a.start - b.start)) {
    const last = marks[marks.length - 1];
    if (h.end > h.start && h.end <= text.length && (!last || h.start >= last.end)) marks.push(h);
  }
  const bold = [...text.matchAll(BOLD)].map((m) => ({ open: m.index, close: m.index + m[0].length - 2 }));
  const hidden = (a: number) => bold.some((b) => (a >= b.open && a < b.open + 2) || (a >= b.close && a < b.close + 2));
  const cuts = new Set([0, text.length]);
  for (const h of marks) cuts.add(h.start).add(h.end);
  for (const b of bold)
    cuts
      .add(b.open)
      .add(b.open + 2)
      .add(b.close)
      .add(b.close + 2);
  const points = [...cuts].sort((a, b) => a - b);

  const nodes: ReactNode[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i] as number;
    const to = points[i + 1] as number;
    if (hidden(from)) continue;
    let node: ReactNode = text.slice(from, to);
    const mark = marks.find((h) => h.start <= from && to <= h.end);
    if (mark) {
      node = (
        <mark className={mark.kind} title={mark.kind === 'brand' ? 'Your brand' : `Competitor: ${mark.name}`}>
          {node}
        </mark>
      );
    }
    if (bold.some((b) => b.open + 2 <= from && to <= b.close)) node = <strong>{node}</strong>;
    nodes.push(<Fragment key={from}>{node}</Fragment>);
  }
  return <>{nodes}</>;
}
