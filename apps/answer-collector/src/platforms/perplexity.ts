import Perplexity, { APIError, type StreamChunk } from '@perplexity-ai/perplexity_ai';
import { countryOf, primaryLanguageOf } from './location.ts';
import {
  type CollectedAnswer,
  type PlatformClient,
  platformErrorOf,
  SDK_CALL_OPTIONS,
  unexpectedShape,
  uniqueUrls,
} from './platform-client.ts';

/**
 * Perplexity through its Sonar chat completions API, through Perplexity's own SDK
 * (`@perplexity-ai/perplexity_ai`) rather than `openai` pointed at it: only Perplexity's types know
 * `search_results`, `citations`, `web_search_options.user_location` and `search_language_filter`,
 * which the OpenAI SDK's chat completion types would need a cast to read or send. Citations are
 * the web `search_results` URLs, or the older `citations` list where those are absent. The country
 * goes to `web_search_options.user_location`, the language to `search_language_filter`.
 */
export function perplexityClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  const sdk = new Perplexity({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    logLevel: 'off',
    ...SDK_CALL_OPTIONS,
  });
  return {
    platform: 'perplexity',
    model: options.model,
    async ask(prompt, { signal, location } = {}) {
      const country = countryOf(location);
      const language = primaryLanguageOf(location);
      let answer: StreamChunk;
      try {
        answer = await sdk.chat.completions.create(
          {
            model: options.model,
            messages: [{ role: 'user', content: prompt }],
            ...(country ? { web_search_options: { user_location: { country } } } : {}),
            ...(language ? { search_language_filter: [language] } : {}),
          },
          { signal },
        );
      } catch (err) {
        if (err instanceof APIError) throw platformErrorOf('perplexity', err, options.apiKey);
        throw err;
      }
      return answerOf(answer);
    },
  };
}

/** The markdown and citations of a Sonar completion. */
function answerOf(answer: StreamChunk): CollectedAnswer {
  const choice = answer.choices[0];
  const content = choice?.message.content;
  const markdown =
    typeof content === 'string'
      ? content
      : (content ?? []).flatMap((chunk) => (chunk.type === 'text' ? [chunk.text] : [])).join('');
  if (!markdown) throw unexpectedShape('perplexity', 'no choices[0].message.content');
  const fromResults = (answer.search_results ?? []).flatMap((r) => (r.source === 'attachment' ? [] : [r.url]));
  return {
    markdown,
    citations: uniqueUrls(fromResults.length ? fromResults : (answer.citations ?? [])),
    ...(choice?.finish_reason === 'length' ? { truncated: 'length' } : {}),
  };
}
