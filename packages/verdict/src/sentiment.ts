import Sentiment from 'sentiment';
import type { Mention } from './mentions.ts';

const analyzer = new Sentiment();

/**
 * The sentiment around a brand's mentions, from −1 (negative) to 1 (positive): the AFINN-165
 * valences (`sentiment` library, English, with its negation handling) of every sentence holding a
 * mention, summed and squashed as VADER does (s / √(s² + 15)), to three decimals. Sentences are
 * split at . ! ? and their CJK forms, and at line ends. Null without a mention.
 */
export function sentimentAround(plain: string, mentions: readonly Mention[]): number | null {
  if (!mentions.length) return null;
  let score = 0;
  const seen = new Set<number>();
  for (const mention of mentions) {
    const begin = sentenceStart(plain, mention.start);
    if (seen.has(begin)) continue;
    seen.add(begin);
    score += analyzer.analyze(plain.slice(begin, sentenceEnd(plain, mention.end))).score;
  }
  return Math.round((score / Math.sqrt(score * score + 15)) * 1000) / 1000;
}

const BOUNDARY = /[.!?。！？\n]/;

function sentenceStart(text: string, from: number): number {
  for (let i = from - 1; i >= 0; i--) if (BOUNDARY.test(text[i] as string)) return i + 1;
  return 0;
}

function sentenceEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (BOUNDARY.test(text[i] as string)) return i + 1;
  return text.length;
}
