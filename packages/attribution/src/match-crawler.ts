import { type AgentMatch, BUNDLED_AGENT_CATALOGUE, createAgentMatcher } from './agent-catalogue.ts';

export type AiCrawlerMatch = AgentMatch;

/** The bundled catalogue's matcher, built once. */
export const BUNDLED_AGENT_MATCHER = createAgentMatcher(BUNDLED_AGENT_CATALOGUE);
const bundled = BUNDLED_AGENT_MATCHER;

/**
 * The AI agent a User-Agent header names, or null, from the bundled catalogue. Tokens match whole
 * and case-insensitively; the first token in the header wins. Dual-use crawlers match too, with
 * their category: what counts as AI is decided where the counts are read.
 */
export const matchAiCrawler = (userAgent: string): AiCrawlerMatch | null => bundled.match(userAgent);

/** The bundled matcher's raw-text prefilter markers (see AgentMatcher.markers). */
export const AI_CRAWLER_UA_MARKERS: readonly string[] = bundled.markers;
