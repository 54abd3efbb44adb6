import { type PlatformClient, postJson, unexpectedShape } from './platform-client.ts';

interface ResponsesApiAnswer {
  output?: {
    type: string;
    content?: { type: string; text?: string; annotations?: { type: string; url?: string }[] }[];
  }[];
}

/**
 * ChatGPT through OpenAI's Responses API with the web search tool (POST /v1/responses). The
 * answer is the `output_text` parts of the `message` output items; citations are their
 * `url_citation` annotations.
 */
export function openAiClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  return {
    platform: 'chatgpt',
    model: options.model,
    async ask(prompt, { signal } = {}) {
      const answer = (await postJson(
        'chatgpt',
        `${options.baseUrl}/v1/responses`,
        { authorization: `Bearer ${options.apiKey}` },
        { model: options.model, input: prompt, tools: [{ type: 'web_search' }] },
        signal,
      )) as ResponsesApiAnswer;
      const parts = (answer.output ?? [])
        .filter((item) => item.type === 'message')
        .flatMap((item) => item.content ?? [])
        .filter((part) => part.type === 'output_text');
      if (!parts.length) throw unexpectedShape('chatgpt', 'no output_text in the message output');
      return {
        markdown: parts.map((p) => p.text ?? '').join('\n\n'),
        citations: parts.flatMap((p) =>
          (p.annotations ?? []).filter((a) => a.type === 'url_citation' && a.url).map((a) => a.url as string),
        ),
      };
    },
  };
}
