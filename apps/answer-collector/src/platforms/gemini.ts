import { type PlatformClient, postJson, unexpectedShape } from './platform-client.ts';

interface GenerateContentAnswer {
  candidates?: {
    content?: { parts?: { text?: string }[] };
    groundingMetadata?: { groundingChunks?: { web?: { uri?: string } }[] };
  }[];
}

/**
 * Gemini through the Gemini API with grounding on Google Search
 * (POST /v1beta/models/{model}:generateContent). Citations are the grounding chunks' web URIs.
 */
export function geminiClient(options: { apiKey: string; model: string; baseUrl: string }): PlatformClient {
  return {
    platform: 'gemini',
    model: options.model,
    async ask(prompt, { signal } = {}) {
      const answer = (await postJson(
        'gemini',
        `${options.baseUrl}/v1beta/models/${encodeURIComponent(options.model)}:generateContent`,
        { 'x-goog-api-key': options.apiKey },
        { contents: [{ role: 'user', parts: [{ text: prompt }] }], tools: [{ google_search: {} }] },
        signal,
      )) as GenerateContentAnswer;
      const candidate = answer.candidates?.[0];
      const parts = candidate?.content?.parts?.filter((p) => typeof p.text === 'string') ?? [];
      if (!parts.length) throw unexpectedShape('gemini', 'no candidates[0].content.parts text');
      return {
        markdown: parts.map((p) => p.text).join(''),
        citations: (candidate?.groundingMetadata?.groundingChunks ?? []).flatMap((c) =>
          c.web?.uri ? [c.web.uri] : [],
        ),
      };
    },
  };
}
