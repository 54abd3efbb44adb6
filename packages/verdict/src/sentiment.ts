import { createRequire } from 'node:module';
import type { Mention } from './mentions.ts';

// AFINN-165 word valences as the `sentiment` library ships them (-5…5).
const require = createRequire(import.meta.url);
const AFINN: Readonly<Record<string, number>> = require('sentiment/languages/en/labels.json');

/**
 * Where AFINN reads answers about products wrongly: words it lacks that answers judge a product
 * with ("clunky", "cheaper than"), and words it scores that in answers are mostly plain facts of a
 * product or its plans: "if you want", "support team", "supports CSV", "a free trial", "cancel at
 * any time". Measured against the readings in
 * ../golden/sentiment-cases.json.
 */
const ADJUSTED: Readonly<Record<string, number>> = {
  clunky: -2,
  buggy: -2,
  lacks: -2,
  lacking: -2,
  expensive: -2,
  overpriced: -2,
  unreliable: -2,
  outdated: -2,
  cheaper: 1,
  simpler: 1,
  intuitive: 2,
  accurate: 1,
  want: 0,
  support: 0,
  supports: 0,
  supported: 0,
  free: 0,
  cancel: 0,
};

/** Phrases whose words read the other way alone ("killer", "problem", "careful"). */
const PHRASES: readonly [RegExp, number][] = [
  [/\bkiller feature/g, 2],
  [/\b(?:solve[sd]?|fix(?:es|ed)?) the problem\b/g, 2],
  [/\bno complaints?\b/g, 2],
  [/\bhard to find a reason not to\b/g, 2],
  [/\bfalls? short\b/g, -2],
  [/\bwatch out\b/g, -2],
  [/\bbe careful\b/g, -2],
  [/\bconsider (?:an )?alternatives?\b/g, -2],
  [/\blook elsewhere\b/g, -2],
  [/\bno way to\b/g, -1],
];

const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'non',
  'cannot',
  'cant',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'wont',
  'without',
  'hardly',
]);
/** How many words back a negator still turns a valence: "not bad at all", "is not really great". */
const NEGATION_REACH = 3;

/** Sentences end at . ! ? (and their CJK forms) and at line ends. */
const BOUNDARY = /[.!?。！？\n]/;
/** A sentence that goes on about the brand without naming it: "It is fast.", "Its setup…". */
const CONTINUES = /^\s*(?:it|its|it's|they|their)\b/i;
/** Where a sentence turns from one thing to another. */
const TURN = /;|\b(?:but|whereas|while|although|though|however|yet)\b/gi;

interface Scored {
  start: number;
  end: number;
  value: number;
  /** The word right after: "than" makes it a comparison. */
  next: string;
}

/**
 * The sentiment around a brand's mentions, from −1 (negative) to 1 (positive), to three decimals;
 * null without a mention. Read with AFINN-165 valences (adjusted for answers about products) over:
 * - each sentence that mentions the brand, and the sentences after it that go on about it by
 *   pronoun ("It is fast. Its reports are clear.");
 * - within a sentence, only the parts about the brand: a sentence turns at `;`, but, whereas,
 *   while, although, however, yet, and a part that names no brand belongs with the part before it,
 *   so "Globex is great, whereas Acme is clunky" is negative for Acme;
 * - within a part that also names a competitor, a word counts for the brand only when the brand is
 *   the nearest name to it (a list's "popular" is not the brand's), and a comparison ("better
 *   than") counts for the name before it and against the name after it;
 * - a negator up to three words back (not, no, never, n't…) turns a word round.
 * The sum is squashed as VADER does, s / √(s² + 15).
 */
export function sentimentAround(
  plain: string,
  mentions: readonly Mention[],
  otherNames: readonly Mention[] = [],
): number | null {
  if (!mentions.length) return null;
  const names = [...mentions.map((m) => ({ ...m, brand: true })), ...otherNames.map((m) => ({ ...m, brand: false }))];
  let score = 0;
  const seen = new Set<number>();
  for (const mention of mentions) {
    let begin = sentenceStart(plain, mention.start);
    while (!seen.has(begin)) {
      seen.add(begin);
      const end = sentenceEnd(plain, begin);
      score += sentenceScore(plain, begin, end, names);
      // The next sentence, when it goes on about the brand by pronoun and names nobody.
      const next = end;
      const nextEnd = sentenceEnd(plain, next);
      const text = plain.slice(next, nextEnd);
      if (next >= plain.length || !CONTINUES.test(text) || names.some((n) => n.start >= next && n.start < nextEnd)) {
        break;
      }
      begin = next;
    }
  }
  return Math.round((score / Math.sqrt(score * score + 15)) * 1000) / 1000;
}

type Name = Mention & { brand: boolean };

function sentenceScore(plain: string, begin: number, end: number, allNames: readonly Name[]): number {
  const names = allNames.filter((n) => n.start >= begin && n.start < end);
  // A sentence that goes on about the brand by pronoun names nobody: all of it is about the brand.
  if (names.length === 0) return scoredWords(plain, begin, end).reduce((sum, w) => sum + w.value, 0);
  // Parts of the sentence, each joined to the one before when it names nobody.
  const cuts = [begin];
  for (const turn of plain.slice(begin, end).matchAll(TURN)) cuts.push(begin + (turn.index ?? 0));
  cuts.push(end);
  const parts: [number, number][] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [from, to] = [cuts[i] as number, cuts[i + 1] as number];
    const named = names.some((n) => n.start >= from && n.start < to);
    const last = parts.at(-1);
    if (last && !named) last[1] = to;
    else if (!named && parts.length === 0 && i + 2 < cuts.length) cuts[i + 1] = from;
    else parts.push([from, to]);
  }
  let score = 0;
  for (const [from, to] of parts) {
    const inPart = names.filter((n) => n.start >= from && n.start < to);
    if (!inPart.some((n) => n.brand)) continue;
    const alone = inPart.every((n) => n.brand);
    for (const word of scoredWords(plain, from, to)) {
      if (alone) {
        score += word.value;
        continue;
      }
      if (word.next === 'than') {
        // "X is better than Acme": for the name before, against the name after.
        const after = inPart.find((n) => n.start >= word.end);
        const before = inPart.filter((n) => n.end <= word.start).at(-1);
        if (after?.brand) score -= word.value;
        else if (before?.brand) score += word.value;
        continue;
      }
      if (nearest(inPart, word)?.brand) score += word.value;
    }
  }
  return score;
}

/** The name closest to a word; a tie goes to the brand. */
function nearest(names: readonly Name[], word: Scored): Name | undefined {
  let best: Name | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const n of names) {
    const distance = n.end <= word.start ? word.start - n.end : Math.max(0, n.start - word.end);
    if (distance < bestDistance || (distance === bestDistance && n.brand)) {
      best = n;
      bestDistance = distance;
    }
  }
  return best;
}

const WORD = /[\p{L}\p{N}'’-]+/gu;
const normalise = (word: string) => word.toLowerCase().replace(/['’]/g, '');

/** The valued words (and phrases) of plain[from, to), negation applied. */
function scoredWords(plain: string, from: number, to: number): Scored[] {
  const text = plain.slice(from, to).toLowerCase();
  const phrases: { start: number; end: number; value: number }[] = [];
  for (const [pattern, value] of PHRASES) {
    for (const found of text.matchAll(pattern)) {
      phrases.push({ start: found.index ?? 0, end: (found.index ?? 0) + found[0].length, value });
    }
  }
  const words = [...text.matchAll(WORD)].map((w) => ({
    start: w.index ?? 0,
    end: (w.index ?? 0) + w[0].length,
    word: normalise(w[0]),
  }));
  const scored: Scored[] = [];
  for (const [i, w] of words.entries()) {
    const phrase = phrases.find((p) => w.start >= p.start && w.start < p.end);
    if (phrase) {
      if (phrase.start === w.start) {
        scored.push({
          start: from + w.start,
          end: from + phrase.end,
          value: negated(words, i, phrase.value),
          next: '',
        });
      }
      continue;
    }
    const value = ADJUSTED[w.word] ?? AFINN[w.word] ?? 0;
    if (value === 0) continue;
    scored.push({
      start: from + w.start,
      end: from + w.end,
      value: negated(words, i, value),
      next: words[i + 1]?.word ?? '',
    });
  }
  return scored;
}

/** A value turned round when a negator stands up to NEGATION_REACH words before word i. */
function negated(words: readonly { word: string }[], i: number, value: number): number {
  for (let back = Math.max(0, i - NEGATION_REACH); back < i; back++) {
    if (NEGATORS.has(words[back]?.word as string)) return -value;
  }
  return value;
}

function sentenceStart(text: string, from: number): number {
  for (let i = from - 1; i >= 0; i--) if (BOUNDARY.test(text[i] as string)) return i + 1;
  return 0;
}

function sentenceEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (BOUNDARY.test(text[i] as string)) return i + 1;
  return text.length;
}
