import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnswer, startFakePlatforms } from '../testing/fake-platforms.ts';
import { anthropicClient } from './anthropic.ts';
import { geminiClient } from './gemini.ts';
import { openAiClient } from './openai.ts';
import { perplexityClient } from './perplexity.ts';
import { type PlatformClient, PlatformError } from './platform-client.ts';

// Each platform adapter against a local server that speaks that API's documented wire format:
// the request it sends (path, key header, model, prompt, web search switched on) and the answer
// it reads back (markdown and citations); then its error paths.

const ANSWER: FakeAnswer = {
  text: 'For a small shop, **Acme** is a good pick. See [the review](https://review.example/a).',
  citations: ['https://acme.io/pricing', 'https://review.example/a'],
};
let fake: Awaited<ReturnType<typeof startFakePlatforms>>;
beforeAll(async () => {
  fake = await startFakePlatforms(() => ANSWER);
});
afterAll(() => fake.close());

const clients = (): [string, PlatformClient][] => [
  ['OpenAI', openAiClient({ apiKey: 'sk-test', model: 'gpt-4.1', baseUrl: fake.baseUrl })],
  ['Perplexity', perplexityClient({ apiKey: 'pplx-test', model: 'sonar', baseUrl: fake.baseUrl })],
  ['Anthropic', anthropicClient({ apiKey: 'ant-test', model: 'claude-sonnet-4-5', baseUrl: fake.baseUrl })],
  ['Gemini', geminiClient({ apiKey: 'gem-test', model: 'gemini-2.5-flash', baseUrl: fake.baseUrl })],
];

const lastRequest = () => fake.requests[fake.requests.length - 1];

describe('platform adapters', () => {
  it('OpenAI: POST /v1/responses with the key as bearer, the model, the prompt and the web_search tool', async () => {
    const client = clients()[0]?.[1] as PlatformClient;
    expect(await client.ask('best analytics?')).toEqual({ markdown: ANSWER.text, citations: ANSWER.citations });
    expect(lastRequest()).toMatchObject({ platform: 'chatgpt', path: '/v1/responses', prompt: 'best analytics?' });
    expect(lastRequest()?.headers.authorization).toBe('Bearer sk-test');
    expect(lastRequest()?.body).toEqual({
      model: 'gpt-4.1',
      input: 'best analytics?',
      tools: [{ type: 'web_search' }],
    });
  });

  it('Perplexity: POST /chat/completions with the key as bearer and the prompt as the user message', async () => {
    const client = clients()[1]?.[1] as PlatformClient;
    expect(await client.ask('best analytics?')).toEqual({ markdown: ANSWER.text, citations: ANSWER.citations });
    expect(lastRequest()?.headers.authorization).toBe('Bearer pplx-test');
    expect(lastRequest()?.body).toEqual({ model: 'sonar', messages: [{ role: 'user', content: 'best analytics?' }] });
  });

  it('Anthropic: POST /v1/messages with x-api-key, anthropic-version and the web_search tool', async () => {
    const client = clients()[2]?.[1] as PlatformClient;
    expect(await client.ask('best analytics?')).toEqual({ markdown: ANSWER.text, citations: ANSWER.citations });
    expect(lastRequest()?.headers['x-api-key']).toBe('ant-test');
    expect(lastRequest()?.headers['anthropic-version']).toBe('2023-06-01');
    expect(lastRequest()?.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: expect.any(Number),
      messages: [{ role: 'user', content: 'best analytics?' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    });
  });

  it('Gemini: POST /v1beta/models/{model}:generateContent with x-goog-api-key and Google Search grounding', async () => {
    const client = clients()[3]?.[1] as PlatformClient;
    expect(await client.ask('best analytics?')).toEqual({ markdown: ANSWER.text, citations: ANSWER.citations });
    expect(lastRequest()?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(lastRequest()?.headers['x-goog-api-key']).toBe('gem-test');
    expect(lastRequest()?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'best analytics?' }] }],
      tools: [{ google_search: {} }],
    });
  });

  it.each(['OpenAI', 'Perplexity', 'Anthropic', 'Gemini'])(
    '%s: 429 and 5xx are retryable (with Retry-After), 401 is not',
    async (name) => {
      const [, client] = clients().find(([n]) => n === name) as [string, PlatformClient];
      const failures: [number, boolean][] = [
        [429, true],
        [503, true],
        [401, false],
      ];
      for (const [status, retryable] of failures) {
        fake.fail(client.platform as 'chatgpt', status);
        const error = await client.ask('q').catch((err: unknown) => err);
        expect(error).toBeInstanceOf(PlatformError);
        expect(error).toMatchObject({ platform: client.platform, status, retryable });
        if (status === 429) expect((error as PlatformError).retryAfterSeconds).toBe(7);
        expect((error as Error).message).not.toContain('test'); // no key in the message
      }
      fake.fail(client.platform as 'chatgpt', 0);
    },
  );

  it('a platform that cannot be reached is retryable; an answer of the wrong shape is not', async () => {
    const down = openAiClient({ apiKey: 'k', model: 'm', baseUrl: 'http://127.0.0.1:1' });
    await expect(down.ask('q')).rejects.toMatchObject({ retryable: true });
    const wrong = perplexityClient({ apiKey: 'k', model: 'm', baseUrl: `${fake.baseUrl}/nowhere` });
    await expect(wrong.ask('q')).rejects.toMatchObject({ retryable: false, status: 404 });
  });
});
