import { ApiError, type GenerateContentConfig, type GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { z } from 'zod';
import { primaryLanguageOf } from './location.ts';
import {
  type CollectedAnswer,
  type PlatformClient,
  platformErrorOf,
  REQUEST_TIMEOUT_MS,
  refusedAnswer,
  unexpectedShape,
  uniqueUrls,
} from './platform-client.ts';

/**
 * Gemini through the Gemini API (`generateContent`) with grounding on Google Search, through
 * `@google/genai`. Citations are the grounding chunks' web URIs. The language goes to
 * `toolConfig.retrievalConfig.languageCode`; Google Search grounding on the Gemini API has no
 * country option (only a latitude/longitude, which a country does not give), so the country is not
 * sent.
 */
export function geminiClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  const sdk = new GoogleGenAI({
    apiKey: options.apiKey,
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot switch it to Vertex AI.
    vertexai: false,
    // No retryOptions: the SDK then makes one attempt (BullMQ retries).
    httpOptions: { baseUrl: options.baseUrl, timeout: REQUEST_TIMEOUT_MS },
  });
  return {
    platform: 'gemini',
    model: options.model,
    async ask(prompt, { signal, location } = {}) {
      const language = primaryLanguageOf(location);
      // The SDK's ApiError has no headers: this call's fetch keeps the failed answer's Retry-After.
      let failedHeaders: Headers | undefined;
      const config: GenerateContentConfig = {
        tools: [{ googleSearch: {} }],
        ...(language ? { toolConfig: { retrievalConfig: { languageCode: language } } } : {}),
        ...(signal ? { abortSignal: signal } : {}),
        httpOptions: {
          fetch: async (input, init) => {
            const res = await fetch(input, init);
            if (!res.ok) failedHeaders = res.headers;
            return res;
          },
        },
      };
      let answer: GenerateContentResponse;
      try {
        answer = await sdk.models.generateContent({ model: options.model, contents: prompt, config });
      } catch (err) {
        if (err instanceof ApiError) {
          throw platformErrorOf(
            'gemini',
            { status: err.status, headers: failedHeaders, ...googleErrorOf(err.message) },
            options.apiKey,
          );
        }
        // fetch's own failures (refused, reset, timed out, aborted) reach here as they are.
        if (err instanceof Error) throw platformErrorOf('gemini', { message: err.message }, options.apiKey);
        throw err;
      }
      return answerOf(answer);
    },
  };
}

/** Finish reasons that end an answer before it is whole, yet leave what was answered worth keeping. */
const TRUNCATING = new Set(['MAX_TOKENS']);

/** The markdown and citations of the first candidate, or why there are none. */
function answerOf(answer: GenerateContentResponse): CollectedAnswer {
  const candidate = answer.candidates?.[0];
  if (!candidate) {
    const blocked = answer.promptFeedback?.blockReason;
    if (blocked) throw refusedAnswer('gemini', `prompt blocked (${blocked})`);
    throw unexpectedShape('gemini', 'no candidates');
  }
  const reason = candidate.finishReason;
  const parts = (candidate.content?.parts ?? []).flatMap((p) => (p.text && !p.thought ? [p.text] : []));
  if (reason && reason !== 'STOP' && !TRUNCATING.has(reason)) throw refusedAnswer('gemini', `finishReason ${reason}`);
  if (!parts.length) throw unexpectedShape('gemini', `no candidates[0].content.parts text (finishReason ${reason})`);
  return {
    markdown: parts.join(''),
    citations: uniqueUrls(
      (candidate.groundingMetadata?.groundingChunks ?? []).flatMap((c) => (c.web?.uri ? [c.web.uri] : [])),
    ),
    ...(reason && TRUNCATING.has(reason) ? { truncated: reason } : {}),
  };
}

/** Google's error body (google.rpc.Status), which the SDK puts in its message as JSON. */
const googleErrorBody = z.object({
  error: z.object({
    message: z.string().optional(),
    status: z.string().optional(),
    details: z.array(z.looseObject({ '@type': z.string().optional(), retryDelay: z.string().optional() })).optional(),
  }),
});

/**
 * The message of a Google error body, and the wait its RetryInfo asks for (`"37s"`): the Gemini API
 * says when to retry there, not in a Retry-After header.
 */
function googleErrorOf(message: string): { message: string; retryAfterSeconds?: number } {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { message };
  }
  const body = googleErrorBody.safeParse(json);
  if (!body.success) return { message };
  const { error } = body.data;
  const delay = error.details?.find((d) => d['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const seconds = delay && /^\d+(\.\d+)?s$/.test(delay) ? Math.ceil(Number.parseFloat(delay)) : undefined;
  return {
    message: [error.status, error.message].filter(Boolean).join(': ') || message,
    ...(seconds ? { retryAfterSeconds: seconds } : {}),
  };
}
