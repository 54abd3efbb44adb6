import { answerCollectorConfigSchema } from '@vt/config';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ReplayPlatform, startVendorReplays, type VendorReplays } from '../testing/vendor-replays.ts';
import { anthropicClient } from './anthropic.ts';
import { geminiClient } from './gemini.ts';
import { openAiClient } from './openai.ts';
import { perplexityClient } from './perplexity.ts';
import { type PlatformClient, PlatformError } from './platform-client.ts';

// Each adapter through its vendor's official SDK, the SDK pointed at a local server replaying the
// vendor's documented examples (src/testing/vendor-fixtures/): the exact request the SDK sent
// (path, key, model, tools, location), the answer read from the SDK's typed result, and the
// documented error, rate-limit and partial-answer shapes.

const KEY = 'sk-secret-test-key';
let replays: VendorReplays;
beforeAll(async () => {
  replays = await startVendorReplays();
});
afterAll(() => replays.close());
afterEach(() => {
  for (const p of ['chatgpt', 'perplexity', 'claude', 'gemini'] as const) replays.fail(p, 0);
});

const clientOf = (platform: ReplayPlatform, baseUrl = replays.baseUrls[platform]): PlatformClient => {
  switch (platform) {
    case 'chatgpt':
      return openAiClient({ apiKey: KEY, model: 'gpt-4.1', baseUrl });
    case 'perplexity':
      return perplexityClient({ apiKey: KEY, model: 'sonar', baseUrl });
    case 'claude':
      return anthropicClient({ apiKey: KEY, model: 'claude-sonnet-5-5', baseUrl });
    case 'gemini':
      return geminiClient({ apiKey: KEY, model: 'gemini-2.5-flash', baseUrl });
  }
};
const lastRequestOf = (platform: ReplayPlatform) => replays.requestsOf(platform).at(-1);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the ask should have failed'),
    (err: unknown) => {
      expect(err).toBeInstanceOf(PlatformError);
      return err as PlatformError;
    },
  );
const GERMANY = { country: 'DE', language: 'de-DE' };

describe('OpenAI (openai SDK, Responses API)', () => {
  it('reads the documented web search answer: output_text and its url_citation annotations', async () => {
    expect(await clientOf('chatgpt').ask('best analytics?')).toEqual({
      markdown: expect.stringContaining("Apple's CEO, Tim Cook, announced"),
      citations: [
        'https://www.usatoday.com/story/news/2025/03/06/apple-trees/',
        'https://www.reuters.com/business/environment/apple-trees-2025-03-06/',
      ],
    });
    const request = lastRequestOf('chatgpt');
    expect(request).toMatchObject({ method: 'POST', path: '/v1/responses' });
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toEqual({ model: 'gpt-4.1', input: 'best analytics?', tools: [{ type: 'web_search' }] });
  });

  it('issue 32: the country goes to the web_search tool user_location (approximate); no language option is sent', async () => {
    await clientOf('chatgpt').ask('beste Analytics?', { location: GERMANY });
    expect(lastRequestOf('chatgpt')?.body).toEqual({
      model: 'gpt-4.1',
      input: 'beste Analytics?',
      tools: [{ type: 'web_search', user_location: { type: 'approximate', country: 'DE' } }],
    });
  });

  it('status incomplete (max_output_tokens) keeps the partial answer, marked truncated; content_filter is a refusal', async () => {
    replays.next('chatgpt', 'incomplete-max-output-tokens', 'incomplete-content-filter');
    expect(await clientOf('chatgpt').ask('q')).toEqual({
      markdown: "On March 6, 2025, several news outlets reported that Apple's CEO, Tim",
      citations: ['https://www.usatoday.com/story/news/2025/03/06/apple-trees/'],
      truncated: 'max_output_tokens',
    });
    expect(await failureOf(clientOf('chatgpt').ask('q'))).toMatchObject({ retryable: false, status: undefined });
  });
});

describe('Perplexity (@perplexity-ai/perplexity_ai SDK, Sonar chat completions)', () => {
  it('reads the documented answer: the message content and the search_results URLs', async () => {
    expect(await clientOf('perplexity').ask('who won euro 2024?')).toEqual({
      markdown: 'Spain won UEFA Euro 2024, beating England 2-1 in the final in Berlin [1][2].',
      citations: [
        'https://www.uefa.com/euro2024/news/final-report/',
        'https://www.bbc.com/sport/football/euro-2024-final',
      ],
    });
    const request = lastRequestOf('perplexity');
    expect(request?.path).toBe('/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toEqual({ model: 'sonar', messages: [{ role: 'user', content: 'who won euro 2024?' }] });
  });

  it('issue 32: the country goes to web_search_options.user_location, the language to search_language_filter', async () => {
    await clientOf('perplexity').ask('q', { location: GERMANY });
    expect(lastRequestOf('perplexity')?.body).toEqual({
      model: 'sonar',
      messages: [{ role: 'user', content: 'q' }],
      web_search_options: { user_location: { country: 'DE' } },
      search_language_filter: ['de'],
    });
  });

  it('finish_reason length keeps the partial answer, marked truncated', async () => {
    replays.next('perplexity', 'length');
    expect(await clientOf('perplexity').ask('q')).toMatchObject({
      markdown: 'Spain won UEFA Euro 2024, beating England',
      truncated: 'length',
    });
  });
});

describe('Anthropic (@anthropic-ai/sdk, Messages API)', () => {
  it('the default ANTHROPIC_MODEL is one the SDK does not warn is deprecated (claude-sonnet-4-5 ends on 2026-11-30)', async () => {
    const model = answerCollectorConfigSchema.shape.ANTHROPIC_MODEL.parse(undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await anthropicClient({ apiKey: KEY, model, baseUrl: replays.baseUrls.claude }).ask(
        'when was Claude Shannon born?',
      );
      expect(lastRequestOf('claude')?.body).toMatchObject({ model });
      expect(warn.mock.calls.flat().join('\n')).not.toMatch(/deprecated/i);
      // The check sees what it looks for: the SDK warns for the old default.
      await anthropicClient({ apiKey: KEY, model: 'claude-sonnet-4-5', baseUrl: replays.baseUrls.claude }).ask('q');
      expect(warn.mock.calls.flat().join('\n')).toMatch(/'claude-sonnet-4-5' is deprecated/);
    } finally {
      warn.mockRestore();
    }
  });

  it('reads the documented web search answer: the text after the search and its web_search_result_location citations', async () => {
    expect(await clientOf('claude').ask('when was Claude Shannon born?')).toEqual({
      markdown: 'Based on the search results, Claude Shannon was born on April 30, 1916, in Petoskey, Michigan',
      citations: ['https://en.wikipedia.org/wiki/Claude_Shannon'],
    });
    const request = lastRequestOf('claude');
    expect(request?.path).toBe('/v1/messages');
    // The SDK (1.x) sends the key as a bearer token, and the API version it was written for.
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request?.body).toEqual({
      model: 'claude-sonnet-5-5',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'when was Claude Shannon born?' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
    });
  });

  it('issue 32: the country goes to the web search tool user_location (approximate); no language option is sent', async () => {
    await clientOf('claude').ask('q', { location: GERMANY });
    expect(lastRequestOf('claude')?.body).toMatchObject({
      tools: [
        { type: 'web_search_20250305', name: 'web_search', user_location: { type: 'approximate', country: 'DE' } },
      ],
    });
    expect(JSON.stringify(lastRequestOf('claude')?.body)).not.toContain('de-DE');
  });

  it('stop_reason pause_turn: the paused turn is sent back as the assistant turn and the answer is the continuation', async () => {
    replays.next('claude', 'pause-turn', 'continued');
    const before = replays.requestsOf('claude').length;
    expect(await clientOf('claude').ask('q')).toEqual({
      markdown: 'Based on the search results, Claude Shannon was born on April 30, 1916, in Petoskey, Michigan',
      citations: ['https://en.wikipedia.org/wiki/Claude_Shannon'],
    });
    const [first, second] = replays.requestsOf('claude').slice(before);
    expect(first?.body.messages).toEqual([{ role: 'user', content: 'q' }]);
    expect(second?.body.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: expect.arrayContaining([expect.objectContaining({ type: 'server_tool_use' })]) },
    ]);
  });

  it('stop_reason max_tokens keeps the partial answer, marked truncated; refusal is not retried', async () => {
    replays.next('claude', 'max-tokens', 'refusal');
    expect(await clientOf('claude').ask('q')).toMatchObject({
      markdown: 'Based on the search results, Claude Shannon was born on April 30,',
      truncated: 'max_tokens',
    });
    expect(await failureOf(clientOf('claude').ask('q'))).toMatchObject({ retryable: false });
  });
});

describe('Gemini (@google/genai SDK, generateContent)', () => {
  it('reads the documented grounded answer: the parts text and the grounding chunks web URIs', async () => {
    expect(await clientOf('gemini').ask('who won euro 2024?')).toEqual({
      markdown: expect.stringMatching(/^Spain won Euro 2024, defeating England 2-1/),
      citations: [
        'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbF9wXGy1',
        'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbF9wXGy2',
      ],
    });
    const request = lastRequestOf('gemini');
    expect(request?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request?.headers['x-goog-api-key']).toBe(KEY);
    expect(request?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'who won euro 2024?' }] }],
      tools: [{ googleSearch: {} }],
      generationConfig: {},
    });
  });

  it('issue 32: the language goes to toolConfig.retrievalConfig.languageCode; the country has no option and is not sent', async () => {
    await clientOf('gemini').ask('q', { location: GERMANY });
    expect(lastRequestOf('gemini')?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'q' }] }],
      tools: [{ googleSearch: {} }],
      toolConfig: { retrievalConfig: { languageCode: 'de' } },
      generationConfig: {},
    });
  });

  it('finishReason MAX_TOKENS keeps the partial answer; SAFETY and a blocked prompt are refusals, not retried', async () => {
    replays.next('gemini', 'max-tokens', 'safety', 'prompt-blocked');
    expect(await clientOf('gemini').ask('q')).toMatchObject({ truncated: 'MAX_TOKENS' });
    expect(await failureOf(clientOf('gemini').ask('q'))).toMatchObject({ retryable: false, message: /SAFETY/ });
    expect(await failureOf(clientOf('gemini').ask('q'))).toMatchObject({ retryable: false, message: /blocked/ });
  });
});

describe('the vendors’ documented errors through each SDK', () => {
  const cases: [ReplayPlatform, number, boolean][] = [
    ['chatgpt', 400, false],
    ['chatgpt', 401, false],
    ['chatgpt', 429, true],
    ['chatgpt', 500, true],
    ['chatgpt', 503, true],
    ['perplexity', 400, false],
    ['perplexity', 401, false],
    ['perplexity', 429, true],
    ['perplexity', 500, true],
    ['claude', 400, false],
    ['claude', 401, false],
    ['claude', 429, true],
    ['claude', 500, true],
    ['claude', 529, true],
    ['gemini', 400, false],
    ['gemini', 403, false],
    ['gemini', 429, true],
    ['gemini', 500, true],
    ['gemini', 503, true],
  ];
  it.each(cases)(
    '%s %i: retryable %s, asked once (no SDK retries), no key in the message',
    async (platform, status, retryable) => {
      replays.fail(platform, status);
      const before = replays.requestsOf(platform).length;
      const error = await failureOf(clientOf(platform).ask('q'));
      expect(error).toMatchObject({ platform, status, retryable });
      expect(replays.requestsOf(platform).length - before).toBe(1);
      expect(error.message).not.toContain(KEY);
      expect(error.message).not.toMatch(/sk-proj/); // OpenAI's 401 echoes the key, masked
      expect(error.message.length).toBeLessThanOrEqual(320);
      // 429: the wait the vendor asked for, from its retry-after header or (Gemini) its RetryInfo body.
      expect(error.retryAfterSeconds).toBe(status === 429 ? 7 : undefined);
    },
  );

  it('a key the vendor echoes back is cut from the message, and a long body is cut at 300 characters', async () => {
    replays.next(
      'claude',
      {
        source: 'test',
        status: 401,
        body: { type: 'error', error: { type: 'authentication_error', message: `bad key ${KEY}` } },
      },
      {
        source: 'test',
        status: 400,
        body: { type: 'error', error: { type: 'invalid_request_error', message: 'x'.repeat(5000) } },
      },
    );
    const echoed = await failureOf(clientOf('claude').ask('q'));
    expect(echoed.message).toContain('[key]');
    expect(echoed.message).not.toContain(KEY);
    const long = await failureOf(clientOf('claude').ask('q'));
    expect(long.message.length).toBeLessThanOrEqual(320);
    expect(long.message).toMatch(/…$/);
  });

  it('retry-after-ms and an HTTP-date retry-after are read too', async () => {
    replays.next(
      'chatgpt',
      { source: 'test', status: 429, headers: { 'retry-after-ms': '1500' }, body: { error: { message: 'slow down' } } },
      {
        source: 'test',
        status: 429,
        headers: { 'retry-after': new Date(Date.now() + 30_000).toUTCString() },
        body: { error: { message: 'slow down' } },
      },
    );
    expect((await failureOf(clientOf('chatgpt').ask('q'))).retryAfterSeconds).toBe(2);
    expect((await failureOf(clientOf('chatgpt').ask('q'))).retryAfterSeconds).toBeGreaterThanOrEqual(29);
  });

  it.each(['chatgpt', 'perplexity', 'claude', 'gemini'] as const)(
    '%s: a platform that cannot be reached is retryable; an endpoint that is not there (404) is not',
    async (platform) => {
      expect(await failureOf(clientOf(platform, 'http://127.0.0.1:1').ask('q'))).toMatchObject({
        retryable: true,
        status: undefined,
      });
      expect(await failureOf(clientOf(platform, `${replays.baseUrls[platform]}/nowhere`).ask('q'))).toMatchObject({
        retryable: false,
        status: 404,
      });
    },
  );
});
