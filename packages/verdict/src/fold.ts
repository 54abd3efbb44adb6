/**
 * Text folded for matching: lower-cased and stripped of accents, with the index in the original
 * text of every folded character, so a match found in the folded text maps back exactly.
 * (`Café` → `cafe`; `İ` → `i`; a character that folds to nothing maps to nothing.)
 */
export interface FoldedText {
  folded: string;
  /** `origin[i]` is the original UTF-16 index of folded character i; `origin[folded.length]` is the text's length. */
  origin: number[];
}

const COMBINING_MARKS = /\p{M}/gu;
const cache = new Map<string, string>();

/** One character (code point) folded: NFD without combining marks, lower-cased. Cached: text reuses few characters. */
function foldChar(char: string): string {
  let folded = cache.get(char);
  if (folded === undefined) {
    folded = char.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase().normalize('NFC');
    if (cache.size < 65_536) cache.set(char, folded);
  }
  return folded;
}

export function foldText(text: string): FoldedText {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const f = char.charCodeAt(0) < 0x80 ? char.toLowerCase() : foldChar(char);
    for (let k = 0; k < f.length; k++) origin.push(index);
    folded += f;
    index += char.length;
  }
  origin.push(text.length);
  return { folded, origin };
}

/** A term folded the same way (for terms the origin map is not needed). */
export const foldTerm = (term: string) => foldText(term.trim()).folded;
