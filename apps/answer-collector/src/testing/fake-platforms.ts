import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake platform answers to a prompt: markdown and cited URLs. */
export interface FakeAnswer {
  text: string;
  citations: string[];
}

export interface RecordedRequest {
  platform: 'chatgpt' | 'perplexity' | 'claude' | 'gemini';
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The prompt, read from wherever that platform's API puts it. */
  prompt: string;
}

/**
 * One local HTTP server speaking the four documented wire formats (OpenAI Responses, Perplexity
 * Sonar chat completions, Anthropic Messages, Gemini generateContent), answering each prompt with
 * `answer(platform, prompt)` in that platform's own shape, citations included. `fail` makes a
 * platform answer an error status (429 with Retry-After, 5xx, 401) instead.
 */
export async function startFakePlatforms(
  answer: (platform: RecordedRequest['platform'], prompt: string) => FakeAnswer,
) {
  const requests: RecordedRequest[] = [];
  const failing = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const path = req.url ?? '';
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
      };
      let platform: RecordedRequest['platform'];
      let prompt = '';
      if (path === '/v1/responses') {
        platform = 'chatgpt';
        prompt = String(body.input);
      } else if (path === '/chat/completions') {
        platform = 'perplexity';
        prompt = String((body.messages as { content: string }[])?.[0]?.content);
      } else if (path === '/v1/messages') {
        platform = 'claude';
        prompt = String((body.messages as { content: string }[])?.[0]?.content);
      } else if (/^\/v1beta\/models\/[^/]+:generateContent$/.test(path)) {
        platform = 'gemini';
        prompt = String((body.contents as { parts: { text: string }[] }[])?.[0]?.parts?.[0]?.text);
      } else {
        return send(404, { error: 'no such endpoint' });
      }
      requests.push({ platform, path, headers: req.headers, body, prompt });
      const status = failing.get(platform);
      if (status)
        return send(status, { error: { message: 'fake failure' } }, status === 429 ? { 'retry-after': '7' } : {});
      const { text, citations } = answer(platform, prompt);
      switch (platform) {
        case 'chatgpt':
          return send(200, {
            id: 'resp_1',
            output: [
              { type: 'web_search_call', id: 'ws_1', status: 'completed' },
              {
                type: 'message',
                role: 'assistant',
                content: [
                  {
                    type: 'output_text',
                    text,
                    annotations: citations.map((url, i) => ({
                      type: 'url_citation',
                      start_index: i,
                      end_index: i,
                      url,
                      title: 't',
                    })),
                  },
                ],
              },
            ],
          });
        case 'perplexity':
          return send(200, {
            id: 'p1',
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            citations,
            search_results: citations.map((url) => ({ title: 't', url })),
          });
        case 'claude':
          return send(200, {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            content: [
              { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: prompt } },
              { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
              {
                type: 'text',
                text,
                citations: citations.map((url) => ({
                  type: 'web_search_result_location',
                  url,
                  title: 't',
                  cited_text: '…',
                })),
              },
            ],
            stop_reason: 'end_turn',
          });
        case 'gemini':
          return send(200, {
            candidates: [
              {
                content: { role: 'model', parts: [{ text }] },
                groundingMetadata: { groundingChunks: citations.map((uri) => ({ web: { uri, title: 't' } })) },
              },
            ],
          });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    /** Makes a platform answer `status` from now on (0: answer normally again). */
    fail(platform: RecordedRequest['platform'], status: number) {
      if (status) failing.set(platform, status);
      else failing.delete(platform);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
