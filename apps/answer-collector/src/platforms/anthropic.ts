import { type PlatformClient, postJson, unexpectedShape } from './platform-client.ts';

interface MessagesAnswer {
  content?: { type: string; text?: string; citations?: { type: string; url?: string }[] | null }[];
}

/** The API version the request is written for (Anthropic's required `anthropic-version` header). */
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Claude through Anthropic's Messages API with the web search tool (POST /v1/messages). The answer
 * is the `text` blocks joined; citations are their `web_search_result_location` citations.
 */
export function anthropicClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  return {
    platform: 'claude',
    model: options.model,
    async ask(prompt, { signal } = {}) {
      const answer = (await postJson(
        'claude',
        `${options.baseUrl}/v1/messages`,
        { 'x-api-key': options.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
        {
          model: options.model,
          max_tokens: 2048,
          messages: [{ role: 'user', content: prompt }],
          tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
        },
        signal,
      )) as MessagesAnswer;
      const blocks = (answer.content ?? []).filter((b) => b.type === 'text');
      if (!blocks.length) throw unexpectedShape('claude', 'no text content block');
      return {
        markdown: blocks.map((b) => b.text ?? '').join(''),
        citations: blocks.flatMap((b) =>
          (b.citations ?? [])
            .filter((c) => c.type === 'web_search_result_location' && c.url)
            .map((c) => c.url as string),
        ),
      };
    },
  };
}
