import { excerptAround } from './excerpt.ts';
import { parseAnswer } from './markdown.ts';
import { findMentions, type TermSet } from './mentions.ts';
import { sentimentAround } from './sentiment.ts';
import { collectSourceUrls, sourceDomain } from './source-urls.ts';

export interface JudgeInput {
  /** The answer as the platform gave it, markdown; stored as is and served by the detail endpoint. */
  answer: string;
  /** URLs the platform cited beside the answer. */
  citations?: readonly string[];
  /** The brand's terms: its name, domain and aliases. */
  brandTerms: readonly string[];
  competitors?: readonly { id: string; terms: readonly string[] }[];
}

export interface Verdict {
  mentioned: boolean;
  /** The brand term first found, as configured; null when not mentioned. */
  matchedTerm: string | null;
  /** UTF-16 offset of the first mention in the answer's markdown; null when not mentioned. */
  position: number | null;
  /** −1…1 around the mentions; null when not mentioned. */
  sentiment: number | null;
  /** Plain text, at most 300 characters, around the first mention, else the answer's start. */
  excerpt: string;
  /** Citations then the answer's links, normalised and each once, with the domain /v1/sources groups by. */
  sources: { url: string; domain: string }[];
  /** Each competitor mentioned, at its first mention. */
  competitorMentions: { competitorId: string; matchedTerm: string; position: number }[];
}

const BRAND = '\u0000brand';

/**
 * The verdict on one answer for one property. Pure: the same input gives the same verdict, so a
 * re-judged answer changes only where the terms changed.
 */
export function judgeAnswer(input: JudgeInput): Verdict {
  const parsed = parseAnswer(input.answer);
  const termSets: TermSet[] = [
    { owner: BRAND, terms: input.brandTerms },
    ...(input.competitors ?? []).map((c) => ({ owner: c.id, terms: c.terms })),
  ];
  // Mentions in the markdown (for positions) and in the plain text (for the excerpt and sentiment).
  const mentions = findMentions(input.answer, termSets, parsed.urlSpans);
  const brandMentions = mentions.filter((m) => m.owner === BRAND);
  const plainMentions = findMentions(parsed.plainText, termSets, parsed.plainUrlSpans);
  const plainBrandMentions = plainMentions.filter((m) => m.owner === BRAND);
  const first = brandMentions[0];

  const competitorMentions = new Map<string, { competitorId: string; matchedTerm: string; position: number }>();
  for (const m of mentions) {
    if (m.owner !== BRAND && !competitorMentions.has(m.owner)) {
      competitorMentions.set(m.owner, { competitorId: m.owner, matchedTerm: m.term, position: m.start });
    }
  }
  const mentioned = first !== undefined;
  return {
    mentioned,
    matchedTerm: first?.term ?? null,
    position: first?.start ?? null,
    sentiment: mentioned
      ? (sentimentAround(
          parsed.plainText,
          plainBrandMentions,
          plainMentions.filter((m) => m.owner !== BRAND),
        ) ?? 0)
      : null,
    excerpt: excerptAround(parsed.plainText, plainBrandMentions[0]?.start ?? null),
    sources: collectSourceUrls(input.citations ?? [], parsed.links).map((url) => ({ url, domain: sourceDomain(url) })),
    competitorMentions: [...competitorMentions.values()],
  };
}
