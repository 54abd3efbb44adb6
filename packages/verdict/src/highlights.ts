import { parseAnswer } from './markdown.ts';
import { findMentions } from './mentions.ts';

/** One name found in an answer: the brand's (competitorId null) or a competitor's. */
export interface NamedSpan {
  competitorId: string | null;
  /** UTF-16 offsets into the answer's markdown, as the verdict's positions are. */
  start: number;
  end: number;
}

const BRAND = '\u0000brand';

/**
 * Every mention of the brand and of each competitor in an answer's markdown, found exactly as the
 * verdict finds them (whole words, accents and case folded, never inside a URL), so what a reader
 * sees highlighted is what was counted.
 */
export function namedSpans(
  answer: string,
  terms: { brandTerms: readonly string[]; competitors?: readonly { id: string; terms: readonly string[] }[] },
): NamedSpan[] {
  const termSets = [
    { owner: BRAND, terms: terms.brandTerms },
    ...(terms.competitors ?? []).map((c) => ({ owner: c.id, terms: c.terms })),
  ];
  return findMentions(answer, termSets, parseAnswer(answer).urlSpans).map((m) => ({
    competitorId: m.owner === BRAND ? null : m.owner,
    start: m.start,
    end: m.end,
  }));
}
