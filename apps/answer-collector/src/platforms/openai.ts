import OpenAI, { APIError } from 'openai';
import type { Response, WebSearchTool } from 'openai/resources/responses/responses';
import { countryOf } from './location.ts';
import {
  type CollectedAnswer,
  type PlatformClient,
  PlatformError,
  platformErrorOf,
  refusedAnswer,
  SDK_CALL_OPTIONS,
  unexpectedShape,
  uniqueUrls,
} from './platform-client.ts';

/**
 * ChatGPT through OpenAI's Responses API with the web search tool, through the `openai` SDK. The
 * answer is the `output_text` parts of the `message` output items; citations are their
 * `url_citation` annotations. The country goes to the tool's `user_location`; the Responses API
 * has no language option (the prompt's own language steers the answer).
 */
export function openAiClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  const sdk = new OpenAI({
    apiKey: options.apiKey,
    // The config's base URL is the API's origin (as for every platform); the SDK's includes /v1.
    baseURL: `${options.baseUrl}/v1`,
    // Explicit, so the SDK reads none of OPENAI_ORG_ID, OPENAI_PROJECT_ID or OPENAI_LOG.
    organization: null,
    project: null,
    logLevel: 'off',
    ...SDK_CALL_OPTIONS,
  });
  return {
    platform: 'chatgpt',
    model: options.model,
    async ask(prompt, { signal, location } = {}) {
      const country = countryOf(location);
      const webSearch: WebSearchTool = country
        ? { type: 'web_search', user_location: { type: 'approximate', country } }
        : { type: 'web_search' };
      let answer: Response;
      try {
        answer = await sdk.responses.create({ model: options.model, input: prompt, tools: [webSearch] }, { signal });
      } catch (err) {
        if (err instanceof APIError) throw platformErrorOf('chatgpt', err, options.apiKey);
        throw err;
      }
      return answerOf(answer);
    },
  };
}

/** The markdown and citations of a Response, or why there are none. */
function answerOf(answer: Response): CollectedAnswer {
  if (answer.status === 'failed') {
    // A failed response carries its error in the body of a 200: a server error is worth retrying.
    const code = answer.error?.code ?? 'unknown';
    throw new PlatformError('chatgpt', `failed: ${code}`, code === 'server_error' || code === 'rate_limit_exceeded');
  }
  const reason = answer.status === 'incomplete' ? (answer.incomplete_details?.reason ?? 'unknown') : undefined;
  if (reason === 'content_filter') throw refusedAnswer('chatgpt', 'content_filter');
  const parts = answer.output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .flatMap((part) => (part.type === 'output_text' ? [part] : []));
  if (!parts.length) {
    const refusal = answer.output.some(
      (item) => item.type === 'message' && item.content.some((part) => part.type === 'refusal'),
    );
    if (refusal) throw refusedAnswer('chatgpt', 'refusal');
    throw unexpectedShape('chatgpt', reason ? `incomplete (${reason}) with no output_text` : 'no output_text');
  }
  return {
    markdown: parts.map((p) => p.text).join('\n\n'),
    citations: uniqueUrls(
      parts.flatMap((p) => p.annotations.flatMap((a) => (a.type === 'url_citation' ? [a.url] : []))),
    ),
    ...(reason ? { truncated: reason } : {}),
  };
}
