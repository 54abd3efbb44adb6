import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The AI agent catalogue: which user agents are AI agents, who operates them, what they fetch for,
 * and where operators publish their IP ranges and signing keys. It is data
 * (`packages/attribution/data/ai-agents.json`, versioned), read and checked here.
 *
 * Categories:
 * - `ai-training`: collects content to train models;
 * - `ai-search`: builds the index an AI assistant answers from;
 * - `ai-assistant`: fetches a page because a person asked an assistant something right now;
 * - `ai-coding-agent`: a coding agent reading documentation or code for a developer;
 * - `ai-browser-agent`: an agent driving a browser for a person;
 * - `dual-use`: a search crawler whose fetches also feed AI answers (Applebot, Bravebot, PetalBot,
 *   GoogleOther), or an agent the two public lists disagree on: ai.robots.txt lists it as AI and
 *   crawler-user-agents tags it otherwise (Amazonbot, meta-webindexer, Google-Agent…; its note says
 *   which tag). Kept under its own category, left out of AI totals unless a property includes it.
 *
 * A `robotsTxtOnly` entry (Google-Extended, Applebot-Extended) is a robots.txt token that never
 * appears in a user agent: listed so the catalogue is complete, never matched. `exclusions` are
 * names of the community lists deliberately not matched, each with its reason.
 */
export const AGENT_CATEGORIES = [
  'ai-training',
  'ai-search',
  'ai-assistant',
  'ai-coding-agent',
  'ai-browser-agent',
  'dual-use',
] as const;
export type AgentCategory = (typeof AGENT_CATEGORIES)[number];

/** The categories counted as AI activity by default; dual-use only where a property includes it. */
export const isAiCategory = (category: AgentCategory) => category !== 'dual-use';

const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https URL' });

const agentSchema = z.strictObject({
  name: z.string().min(1).max(100),
  /** Lower-case single word; keys the operator's published IP ranges. */
  operator: z.string().regex(/^[a-z0-9]+$/, 'must be a lower-case single word'),
  category: z.enum(AGENT_CATEGORIES),
  /** User-agent tokens, matched whole and case-insensitively; the name when absent. */
  tokens: z.array(z.string().min(2).max(100)).min(1).optional(),
  robotsTxtOnly: z.literal(true).optional(),
  /**
   * Web Bot Auth: the `Signature-Agent` origins the agent signs as (`https://chatgpt.com`). A
   * request signed by one of them is the agent whatever its user agent; the keys come from the
   * operator's `keyDirectory`.
   */
  signatureAgents: z.array(httpsUrl).min(1).optional(),
  note: z.string().optional(),
});

const operatorSchema = z.strictObject({
  name: z.string().optional(),
  /** Files of `{creationTime, prefixes: [{ipv4Prefix} | {ipv6Prefix}]}`. */
  ipRanges: z.array(httpsUrl).min(1).optional(),
  /** A Web Bot Auth key directory (`/.well-known/http-message-signatures-directory`). */
  keyDirectory: httpsUrl.optional(),
});

export const agentCatalogueSchema = z
  .strictObject({
    version: z.string().regex(/^\d{4}-\d{2}-\d{2}\.\d+$/, 'must be a day and a sequence number, as 2026-11-23.1'),
    description: z.string().optional(),
    sources: z.array(z.strictObject({ name: z.string(), url: httpsUrl, commit: z.string().optional() })).default([]),
    operators: z.record(z.string(), operatorSchema),
    agents: z.array(agentSchema).min(1),
    exclusions: z.array(z.strictObject({ name: z.string().min(1), reason: z.string().min(10) })).default([]),
  })
  .superRefine((catalogue, ctx) => {
    const seen = new Map<string, string>();
    for (const [i, agent] of catalogue.agents.entries()) {
      if (!(agent.operator in catalogue.operators)) {
        ctx.addIssue({
          code: 'custom',
          path: ['agents', i, 'operator'],
          message: `${agent.operator} is not in operators`,
        });
      }
      for (const token of agent.tokens ?? [agent.name]) {
        const key = token.toLowerCase();
        const other = seen.get(key);
        if (other) {
          ctx.addIssue({ code: 'custom', path: ['agents', i], message: `token ${token} is also ${other}'s` });
        }
        seen.set(key, agent.name);
      }
    }
    for (const [i, excluded] of catalogue.exclusions.entries()) {
      if (seen.has(excluded.name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: ['exclusions', i], message: `${excluded.name} is excluded and matched` });
      }
    }
  });

export type AgentCatalogue = z.output<typeof agentCatalogueSchema>;
export type CatalogueAgent = AgentCatalogue['agents'][number];

/** The catalogue shipped with this release. */
export const BUNDLED_AGENT_CATALOGUE: AgentCatalogue = agentCatalogueSchema.parse(
  JSON.parse(readFileSync(new URL('../data/ai-agents.json', import.meta.url), 'utf8')),
);

/** What a match says of a request: the agent, its operator and its category. */
export interface AgentMatch {
  agent: string;
  operator: string;
  category: AgentCategory;
}

export interface AgentMatcher {
  readonly version: string;
  /** The agent that signs as a `Signature-Agent` origin, or null. */
  matchSignatureAgent(origin: string): AgentMatch | null;
  /** The agent a User-Agent header names, or null; the first token in the header wins. */
  match(userAgent: string): AgentMatch | null;
  /**
   * Lower-case substrings for a raw-text prefilter on lower-cased lines: every user agent that
   * `match` matches contains at least one. A hit only means "parse this line".
   */
  readonly markers: readonly string[];
}

// Characters that continue a token: a match needs something else (or the string's edge) before
// it, so `notGPTBot` is not `GPTBot`, and after it, so `GPTBot2` and `GPTBot_x` are nothing. The
// one thing a token may be followed by is a hyphenated suffix, as agents write their variants
// (`crawl4ai-adapter/1.0`, `semantic-visions-discovery`, `TSM-turingos-1253296984`): the token
// with its suffix is the token's agent, unless the whole hyphenated name is another token (longest
// first, so `Claude-User` is not `Claude`…) or a robots.txt-only token (`Applebot-Extended` is not
// `Applebot`), which matches nothing.
const TOKEN_CHAR = 'A-Za-z0-9_-';
const SUFFIX = '(?:-[A-Za-z0-9_]+)*';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A matcher over a catalogue's matchable tokens: one precompiled alternation, longest token
 * first, with the boundaries as look-arounds, and one map look-up to one frozen result per token.
 * Robots.txt-only tokens are in the alternation too, with no result, so that a suffix never turns
 * one of them into the agent it extends; the search goes on past them.
 */
export function createAgentMatcher(catalogue: AgentCatalogue): AgentMatcher {
  const byToken = new Map<string, AgentMatch>();
  const bySignatureAgent = new Map<string, AgentMatch>();
  const stops = new Set<string>();
  for (const agent of catalogue.agents) {
    if (agent.robotsTxtOnly) {
      for (const token of agent.tokens ?? [agent.name]) stops.add(token.toLowerCase());
      continue;
    }
    const result = Object.freeze({ agent: agent.name, operator: agent.operator, category: agent.category });
    for (const token of agent.tokens ?? [agent.name]) byToken.set(token.toLowerCase(), result);
    for (const origin of agent.signatureAgents ?? []) bySignatureAgent.set(new URL(origin).origin, result);
  }
  const tokens = [...byToken.keys()];
  const pattern = new RegExp(
    `(?<![${TOKEN_CHAR}])(${[...tokens, ...stops]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|')})${SUFFIX}(?![${TOKEN_CHAR}])`,
    'gi',
  );
  return {
    version: catalogue.version,
    matchSignatureAgent: (origin) => bySignatureAgent.get(origin) ?? null,
    match(userAgent) {
      // One shared global pattern: lastIndex is reset before each search (matching is synchronous).
      pattern.lastIndex = 0;
      for (let found = pattern.exec(userAgent); found; found = pattern.exec(userAgent)) {
        const hit = byToken.get((found[1] as string).toLowerCase());
        if (hit) return hit;
      }
      return null;
    },
    // A token that contains another is covered by it (`omgilibot` by `omgili`).
    markers: tokens.filter((t) => !tokens.some((other) => other !== t && t.includes(other))),
  };
}

/** The published IP-range files of each operator that has them. */
export function operatorRangeSources(catalogue: AgentCatalogue): Record<string, readonly string[]> {
  return Object.fromEntries(
    Object.entries(catalogue.operators).flatMap(([operator, o]) => (o.ipRanges ? [[operator, o.ipRanges]] : [])),
  );
}

/**
 * An agent's category by the name its counts are stored under (or any of its tokens, so names an
 * earlier catalogue stored, such as `omgilibot`, still resolve); null for a name the catalogue no
 * longer knows.
 */
export function agentCategories(catalogue: AgentCatalogue): (storedName: string) => AgentCategory | null {
  const byName = new Map<string, AgentCategory>();
  for (const agent of catalogue.agents) {
    for (const key of [agent.name, ...(agent.tokens ?? [])]) byName.set(key.toLowerCase(), agent.category);
  }
  return (storedName) => byName.get(storedName.toLowerCase()) ?? null;
}

/**
 * Whether counts stored under an agent's name are AI activity: every category but dual-use, and
 * dual-use too where the property includes it. A name the catalogue no longer knows was AI when it
 * was counted, and stays so.
 */
export function countsAsAi(category: AgentCategory | null, includeDualUse: boolean): boolean {
  return category === null || isAiCategory(category) || includeDualUse;
}
