/**
 * The AI crawler catalogue: which user agents are AI crawlers, who operates them and why they fetch.
 *
 * purpose: `training` collects content to train models; `search` builds the index an AI assistant
 * answers from; `user-fetch` fetches a page because a user asked the assistant something right now.
 * `operator` is a lower-case single word, the key of the operator's published IP ranges.
 *
 * Deliberately absent:
 * - Google: `Google-Extended` is a robots.txt token, never a user agent. Google's AI features
 *   (AI Overviews, AI Mode, Gemini grounding) are fed by ordinary Googlebot fetches that cannot be
 *   told apart from search crawling, so Googlebot is never counted. The few fetchers Google names
 *   for AI products (Google-CloudVertexBot, Gemini-Deep-Research, Google-NotebookLM,
 *   GoogleAgent-Mariner) are matched when they show up.
 * - Apple: `Applebot-Extended` is a robots.txt token too; the fetches arrive as Applebot, the crawler
 *   behind Siri, Spotlight and Safari suggestions. Like Googlebot and bingbot it is a search crawler
 *   first whose AI use cannot be told apart, so Applebot is not counted (decided for consistency:
 *   counting it would count classic search crawling as AI activity).
 * - Classic search crawlers (Googlebot, bingbot, YandexBot, DuckDuckBot, PetalBot, Bravebot), SEO
 *   tools (AhrefsBot, SemrushBot), link previews (facebookexternalhit) and generic tool names
 *   (Scrapy, python-requests, curl) are not AI crawlers.
 * - Agents that browse with a stock browser user agent (ChatGPT agent, OpenAI Operator) carry no token
 *   to match.
 */
export type AiCrawlerPurpose = 'training' | 'search' | 'user-fetch';

export interface AiCrawler {
  /** Display name of the agent. */
  agent: string;
  /** Lower-case single word; keys the operator's published IP ranges. */
  operator: string;
  purpose: AiCrawlerPurpose;
  /** The token in the User-Agent header, matched whole and case-insensitively. */
  token: string;
}

const entry = (token: string, operator: string, purpose: AiCrawlerPurpose): AiCrawler => ({
  agent: token,
  operator,
  purpose,
  token,
});

export const AI_CRAWLERS: readonly AiCrawler[] = [
  entry('GPTBot', 'openai', 'training'),
  entry('OAI-SearchBot', 'openai', 'search'),
  entry('ChatGPT-User', 'openai', 'user-fetch'),
  entry('ClaudeBot', 'anthropic', 'training'),
  entry('Claude-SearchBot', 'anthropic', 'search'),
  entry('Claude-User', 'anthropic', 'user-fetch'),
  // Legacy Anthropic agents, undocumented today; counted with training, their old role.
  entry('anthropic-ai', 'anthropic', 'training'),
  entry('claude-web', 'anthropic', 'training'),
  entry('PerplexityBot', 'perplexity', 'search'),
  entry('Perplexity-User', 'perplexity', 'user-fetch'),
  // Crawls a site at its owner's request to build a Vertex AI agent's retrieval index.
  entry('Google-CloudVertexBot', 'google', 'search'),
  entry('Gemini-Deep-Research', 'google', 'user-fetch'),
  entry('Google-NotebookLM', 'google', 'user-fetch'),
  entry('GoogleAgent-Mariner', 'google', 'user-fetch'),
  entry('meta-externalagent', 'meta', 'training'),
  entry('meta-webindexer', 'meta', 'search'),
  entry('meta-externalfetcher', 'meta', 'user-fetch'),
  // Meta documents it as collecting training data for its language and speech models.
  entry('FacebookBot', 'meta', 'training'),
  // Amazon: "may be used to train Amazon AI models".
  entry('Amazonbot', 'amazon', 'training'),
  entry('Amzn-SearchBot', 'amazon', 'search'),
  entry('Amzn-User', 'amazon', 'user-fetch'),
  entry('CCBot', 'commoncrawl', 'training'),
  entry('Bytespider', 'bytedance', 'training'),
  entry('TikTokSpider', 'bytedance', 'training'),
  // Real-time fetches for DuckAssist answers to a user's search; DuckDuckGo says not used to train.
  entry('DuckAssistBot', 'duckduckgo', 'user-fetch'),
  entry('MistralAI-User', 'mistral', 'user-fetch'),
  entry('MistralAI-Index', 'mistral', 'search'),
  entry('cohere-ai', 'cohere', 'user-fetch'),
  entry('cohere-training-data-crawler', 'cohere', 'training'),
  entry('YouBot', 'youcom', 'search'),
  entry('AzureAI-SearchBot', 'microsoft', 'search'),
  entry('YandexAdditionalBot', 'yandex', 'search'),
  entry('DeepSeekBot', 'deepseek', 'training'),
  entry('PanguBot', 'huawei', 'training'),
  entry('Diffbot', 'diffbot', 'training'),
  entry('omgili', 'webzio', 'training'),
  entry('omgilibot', 'webzio', 'training'),
  entry('Webzio-Extended', 'webzio', 'training'),
  entry('AI2Bot', 'ai2', 'training'),
  entry('Ai2Bot-Dolma', 'ai2', 'training'),
  entry('Timpibot', 'timpi', 'training'),
  entry('ImagesiftBot', 'imagesift', 'training'),
  entry('Kangaroo Bot', 'kangaroo', 'training'),
  entry('iaskspider', 'iask', 'search'),
  entry('PhindBot', 'phind', 'search'),
  entry('Andibot', 'andi', 'search'),
  entry('LinerBot', 'liner', 'search'),
  entry('TavilyBot', 'tavily', 'user-fetch'),
  entry('kagi-fetcher', 'kagi', 'user-fetch'),
  entry('FirecrawlAgent', 'firecrawl', 'user-fetch'),
  entry('Manus-User', 'manus', 'user-fetch'),
  entry('atlassian-bot', 'atlassian', 'search'),
  entry('Cloudflare-AutoRAG', 'cloudflare', 'search'),
  entry('KlaviyoAIBot', 'klaviyo', 'search'),
  entry('ShapBot', 'parallel', 'search'),
  entry('Cotoyogi', 'rois', 'training'),
  entry('ICC-Crawler', 'nict', 'training'),
  entry('SBIntuitionsBot', 'sbintuitions', 'training'),
  entry('VelenPublicWebCrawler', 'velen', 'training'),
  entry('LAIONDownloader', 'laion', 'training'),
  entry('img2dataset', 'img2dataset', 'training'),
];
