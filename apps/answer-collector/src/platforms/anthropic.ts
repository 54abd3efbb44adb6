import Anthropic, { APIError } from '@anthropic-ai/sdk';
import type { ContentBlock, MessageParam, WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages';
import { countryOf } from './location.ts';
import {
  type CollectedAnswer,
  type PlatformClient,
  platformErrorOf,
  refusedAnswer,
  SDK_CALL_OPTIONS,
  unexpectedShape,
  uniqueUrls,
} from './platform-client.ts';

/** The most output tokens one answer may use: a long answer with sources fits; a runaway one is cut. */
const MAX_TOKENS = 4096;
/**
 * How many times a turn the server paused (`pause_turn`, a long web search) is sent back to go on.
 * Each continuation is a paid call; past this the answer so far is kept, marked truncated.
 */
const MAX_CONTINUATIONS = 3;

/**
 * Claude through Anthropic's Messages API with the web search tool, through `@anthropic-ai/sdk`.
 * The answer is the `text` blocks after the last web search result, joined; citations are their
 * `web_search_result_location` citations. The country goes to the tool's `user_location`; the Messages API has no language
 * option (the prompt's own language steers the answer).
 */
export function anthropicClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  // The apiKey passed in code is the client's only credential: ANTHROPIC_AUTH_TOKEN and profiles
  // are not read. logLevel too, so ANTHROPIC_LOG is not.
  const sdk = new Anthropic({ apiKey: options.apiKey, baseURL: options.baseUrl, logLevel: 'off', ...SDK_CALL_OPTIONS });
  return {
    platform: 'claude',
    model: options.model,
    async ask(prompt, { signal, location } = {}) {
      const country = countryOf(location);
      const webSearch: WebSearchTool20250305 = {
        type: 'web_search_20250305',
        name: 'web_search',
        max_uses: 5,
        ...(country ? { user_location: { type: 'approximate', country } } : {}),
      };
      const messages: MessageParam[] = [{ role: 'user', content: prompt }];
      const content: ContentBlock[] = [];
      for (let turn = 0; ; turn++) {
        let message: Anthropic.Message;
        try {
          message = await sdk.messages.create(
            { model: options.model, max_tokens: MAX_TOKENS, messages, tools: [webSearch] },
            { signal },
          );
        } catch (err) {
          if (err instanceof APIError) throw platformErrorOf('claude', err, options.apiKey);
          throw err;
        }
        content.push(...message.content);
        if (message.stop_reason === 'pause_turn' && turn < MAX_CONTINUATIONS) {
          // Documented continuation: the paused turn goes back as the assistant's, as it came.
          messages.splice(1, 1, { role: 'assistant', content: [...content] });
          continue;
        }
        return answerOf(content, message.stop_reason);
      }
    },
  };
}

/** The markdown and citations of the text blocks, or why there are none. */
function answerOf(content: ContentBlock[], stopReason: Anthropic.StopReason | null): CollectedAnswer {
  if (stopReason === 'refusal') throw refusedAnswer('claude', 'refusal');
  // The answer is what Claude wrote after its last search: the text before it announces the search
  // ("I'll search for …"). With no search, every text block.
  const lastSearch = content.findLastIndex((b) => b.type === 'web_search_tool_result');
  const blocks = content.slice(lastSearch + 1).flatMap((b) => (b.type === 'text' ? [b] : []));
  if (!blocks.length) throw unexpectedShape('claude', `no text content block (stop_reason ${stopReason})`);
  const truncated = stopReason === 'max_tokens' || stopReason === 'pause_turn' ? stopReason : undefined;
  return {
    markdown: blocks.map((b) => b.text).join(''),
    citations: uniqueUrls(
      blocks.flatMap((b) =>
        (b.citations ?? []).flatMap((c) => (c.type === 'web_search_result_location' ? [c.url] : [])),
      ),
    ),
    ...(truncated ? { truncated } : {}),
  };
}
