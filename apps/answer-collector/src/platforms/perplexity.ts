import { type PlatformClient, postJson, unexpectedShape } from './platform-client.ts';

interface SonarAnswer {
  choices?: { message?: { content?: string } }[];
  citations?: string[];
  search_results?: { url?: string }[];
}

/**
 * Perplexity through its Sonar chat completions API (POST /chat/completions). Citations are the
 * answer's `citations` list, or its `search_results` URLs where that is absent.
 */
export function perplexityClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  return {
    platform: 'perplexity',
    model: options.model,
    async ask(prompt, { signal } = {}) {
      const answer = (await postJson(
        'perplexity',
        `${options.baseUrl}/chat/completions`,
        { authorization: `Bearer ${options.apiKey}` },
        { model: options.model, messages: [{ role: 'user', content: prompt }] },
        signal,
      )) as SonarAnswer;
      const markdown = answer.choices?.[0]?.message?.content;
      if (typeof markdown !== 'string') throw unexpectedShape('perplexity', 'no choices[0].message.content');
      const citations = answer.citations ?? (answer.search_results ?? []).flatMap((r) => (r.url ? [r.url] : []));
      return { markdown, citations };
    },
  };
}
