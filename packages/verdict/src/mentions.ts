import { foldTerm, foldText } from './fold.ts';
import type { Span } from './markdown.ts';

/** Whose terms these are: the brand, or a competitor by id. */
export interface TermSet {
  owner: string;
  terms: readonly string[];
}

export interface Mention {
  owner: string;
  /** The term as configured. */
  term: string;
  /** UTF-16 offsets into the searched text. */
  start: number;
  end: number;
}

// Scripts written without spaces between words: a term in them matches inside a run of letters.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

/** The character (code point) ending at, or starting at, a UTF-16 index. */
function charBefore(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text.slice(index - 1, index);
}
function charAt(text: string, index: number): string {
  const cp = text.codePointAt(index);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** Two characters are one word when both are word characters of a script that separates words with spaces. */
function joins(inner: string, outer: string): boolean {
  return WORD_CHAR.test(inner) && WORD_CHAR.test(outer) && !UNSPACED.test(inner) && !UNSPACED.test(outer);
}

function inSpans(spans: readonly Span[], start: number, end: number): boolean {
  for (const [a, b] of spans) {
    if (a >= end) return false;
    if (b > start) return true;
  }
  return false;
}

/**
 * Every mention of every term in `text`: case- and accent-insensitive, on whole words (a term
 * is not found inside a longer word of a spaced script: "Notion" is not in "notional", "Acme" is
 * in "Acme's"), never touching a `blocked` span (URLs). Where matches overlap the longest wins
 * ("Acme Cloud" over "Acme"), then the earliest. Sorted by position.
 */
export function findMentions(text: string, termSets: readonly TermSet[], blocked: readonly Span[] = []): Mention[] {
  const { folded, origin } = foldText(text);
  const candidates: Mention[] = [];
  for (const { owner, terms } of termSets) {
    for (const term of terms) {
      const needle = foldTerm(term);
      if (!needle) continue;
      for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + 1)) {
        const start = origin[at] as number;
        const end = origin[at + needle.length] as number;
        if (joins(charAt(text, start), charBefore(text, start)) || joins(charBefore(text, end), charAt(text, end)))
          continue;
        if (inSpans(blocked, start, end)) continue;
        candidates.push({ owner, term, start, end });
      }
    }
  }
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Mention[] = [];
  for (const c of candidates) {
    if (!kept.some((k) => c.start < k.end && k.start < c.end)) kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}
