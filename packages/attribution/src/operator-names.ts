import type { AgentCatalogue } from './agent-catalogue.ts';

/**
 * Crawler operators as people write them: the catalogue keys each operator by a lower-case word
 * (it keys the published IP ranges), which reads as a typo on a page ("openai", "youcom"). These
 * are the operators' own spellings; the catalogue's own `name`, where it gives one, comes first.
 * Kept apart from the AI platforms' names (ChatGPT, Claude…): an operator runs crawlers, a
 * platform sends visitors and answers questions.
 */
export const CRAWLER_OPERATOR_NAMES: Readonly<Record<string, string>> = {
  ai2: 'Ai2',
  alibaba: 'Alibaba',
  amazon: 'Amazon',
  anthropic: 'Anthropic',
  anysphere: 'Anysphere (Cursor)',
  apify: 'Apify',
  apple: 'Apple',
  atlassian: 'Atlassian',
  baidu: 'Baidu',
  brave: 'Brave',
  brightdata: 'Bright Data',
  bytedance: 'ByteDance',
  cloudflare: 'Cloudflare',
  cognition: 'Cognition',
  cohere: 'Cohere',
  commoncrawl: 'Common Crawl',
  deepseek: 'DeepSeek',
  diffbot: 'Diffbot',
  duckduckgo: 'DuckDuckGo',
  exa: 'Exa',
  firecrawl: 'Firecrawl',
  google: 'Google',
  huawei: 'Huawei',
  iask: 'iAsk',
  kagi: 'Kagi',
  klaviyo: 'Klaviyo',
  laion: 'LAION',
  linkup: 'Linkup',
  manus: 'Manus',
  meta: 'Meta',
  microsoft: 'Microsoft',
  mistral: 'Mistral AI',
  moonshot: 'Moonshot AI',
  mozilla: 'Mozilla',
  openai: 'OpenAI',
  perplexity: 'Perplexity',
  phind: 'Phind',
  quillbot: 'QuillBot',
  semrush: 'Semrush',
  tavily: 'Tavily',
  webzio: 'Webz.io',
  yandex: 'Yandex',
  youcom: 'You.com',
  zhipu: 'Zhipu AI',
};

/** An operator id in words: the catalogue's name, else the known spelling, else the id capitalised. */
export function crawlerOperatorName(operator: string, catalogue?: AgentCatalogue): string {
  return (
    catalogue?.operators[operator]?.name ??
    CRAWLER_OPERATOR_NAMES[operator] ??
    (operator ? operator[0]?.toUpperCase() + operator.slice(1) : operator)
  );
}
