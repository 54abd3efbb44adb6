import { AI_CRAWLERS, type AiCrawler } from './ai-crawlers.ts';

export type AiCrawlerMatch = Pick<AiCrawler, 'agent' | 'operator' | 'purpose'>;

// Characters that continue a token: a match needs something else (or the string's edge) on both
// sides, so `Claude-User` is not `ClaudeBot`, `notGPTBot` is not `GPTBot`, `ClaudeBot-Extra` is not
// `ClaudeBot`.
const TOKEN_CHAR = 'A-Za-z0-9_-';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One frozen result per token, so a match allocates nothing. */
const MATCH_BY_TOKEN = new Map<string, AiCrawlerMatch>(
  AI_CRAWLERS.map((c) => [
    c.token.toLowerCase(),
    Object.freeze({ agent: c.agent, operator: c.operator, purpose: c.purpose }),
  ]),
);

/** Every token in one alternation, longest first, with the boundaries as look-arounds. */
const TOKEN_PATTERN = new RegExp(
  `(?<![${TOKEN_CHAR}])(?:${[...AI_CRAWLERS]
    .map((c) => c.token)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|')})(?![${TOKEN_CHAR}])`,
  'i',
);

/**
 * The AI crawler a User-Agent header names, or null. Tokens match whole and case-insensitively;
 * the first token in the header wins. One precompiled regex and one map look-up.
 */
export function matchAiCrawler(userAgent: string): AiCrawlerMatch | null {
  const found = TOKEN_PATTERN.exec(userAgent);
  return found ? (MATCH_BY_TOKEN.get(found[0].toLowerCase()) ?? null) : null;
}

/**
 * Lower-case substrings for a raw-text prefilter on lower-cased lines: every user agent that
 * matchAiCrawler matches contains at least one. Built from the tokens, dropping a token that
 * contains another (`omgilibot` is covered by `omgili`). A hit only means "parse this line".
 */
export const AI_CRAWLER_UA_MARKERS: readonly string[] = (() => {
  const tokens = [...new Set(AI_CRAWLERS.map((c) => c.token.toLowerCase()))];
  return tokens.filter((t) => !tokens.some((other) => other !== t && t.includes(other)));
})();
