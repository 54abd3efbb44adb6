import { Fragment, type ReactNode } from 'react';

export interface Highlight {
  start: number;
  end: number;
  kind: 'brand' | 'competitor';
  name: string;
}

/**
 * An answer's text with the brand's and the competitors' names marked, built as React nodes from
 * the API's offsets: the text is only ever a text node, so nothing in an answer can become markup.
 * Offsets are UTF-16 indexes, as JavaScript strings count them; overlapping or out-of-range spans
 * (the text edited since, say) are skipped rather than trusted.
 */
export function HighlightedText({ text, highlights }: { text: string; highlights: readonly Highlight[] }) {
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const h of [...highlights].sort((a, b) => a.start - b.start)) {
    if (h.start < at || h.end <= h.start || h.end > text.length) continue;
    if (h.start > at) nodes.push(<Fragment key={`t${at}`}>{text.slice(at, h.start)}</Fragment>);
    nodes.push(
      <mark key={`m${h.start}`} className={h.kind} title={h.kind === 'brand' ? 'Your brand' : `Competitor: ${h.name}`}>
        {text.slice(h.start, h.end)}
      </mark>,
    );
    at = h.end;
  }
  if (at < text.length) nodes.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{nodes}</>;
}
