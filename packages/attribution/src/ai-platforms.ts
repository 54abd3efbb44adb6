/**
 * The five AI assistant platforms the service attributes visits and leads to, and the model
 * identifiers of collected answers. One identifier each, shared by the crawl ingest (referers),
 * the lead webhook (referrer, utmSource) and the read API (`model`).
 * Google AI Overviews is deliberately absent: it arrives with no AI-specific referrer.
 */
export const AI_PLATFORMS = [
  { id: 'chatgpt', name: 'ChatGPT', hosts: ['chatgpt.com', 'chat.openai.com'] },
  { id: 'perplexity', name: 'Perplexity', hosts: ['perplexity.ai'] },
  { id: 'claude', name: 'Claude', hosts: ['claude.ai'] },
  { id: 'gemini', name: 'Gemini', hosts: ['gemini.google.com', 'bard.google.com'] },
  { id: 'copilot', name: 'Copilot', hosts: ['copilot.microsoft.com', 'copilot.cloud.microsoft'] },
] as const;

export type AiPlatform = (typeof AI_PLATFORMS)[number];
export type AiPlatformId = AiPlatform['id'];
export const AI_PLATFORM_IDS = AI_PLATFORMS.map((p) => p.id) as [AiPlatformId, ...AiPlatformId[]];

const PLATFORM_NAMES: Readonly<Record<string, string>> = Object.fromEntries(AI_PLATFORMS.map((p) => [p.id, p.name]));

/** An AI platform id (chatgpt, claude…) as the platform spells itself; an unknown id unchanged. */
export const aiPlatformName = (platform: string): string => PLATFORM_NAMES[platform] ?? platform;
