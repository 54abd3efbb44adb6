import type { AiPlatformId } from '@vt/attribution';
import type { AnswerCollectorConfig } from '@vt/config';
import { anthropicClient } from './anthropic.ts';
import { geminiClient } from './gemini.ts';
import { openAiClient } from './openai.ts';
import { perplexityClient } from './perplexity.ts';
import type { PlatformClient } from './platform-client.ts';

export {
  type AnswerLocation,
  type AskOptions,
  type CollectedAnswer,
  type PlatformClient,
  PlatformError,
} from './platform-client.ts';

/**
 * A client for each platform this deployment has a key for, and why each other one is skipped.
 * Copilot is always skipped: Microsoft offers no public API that answers as Copilot does.
 */
export function platformClients(config: AnswerCollectorConfig): {
  clients: PlatformClient[];
  skipped: { platform: AiPlatformId; reason: string }[];
} {
  const clients: PlatformClient[] = [];
  const skipped: { platform: AiPlatformId; reason: string }[] = [];
  const add = (
    platform: AiPlatformId,
    key: string | undefined,
    variable: string,
    make: (apiKey: string) => PlatformClient,
  ) => {
    if (key) clients.push(make(key));
    else skipped.push({ platform, reason: `${variable} is not set` });
  };
  add('chatgpt', config.OPENAI_API_KEY, 'OPENAI_API_KEY', (apiKey) =>
    openAiClient({ apiKey, model: config.OPENAI_MODEL, baseUrl: config.OPENAI_BASE_URL }),
  );
  add('perplexity', config.PERPLEXITY_API_KEY, 'PERPLEXITY_API_KEY', (apiKey) =>
    perplexityClient({ apiKey, model: config.PERPLEXITY_MODEL, baseUrl: config.PERPLEXITY_BASE_URL }),
  );
  add('claude', config.ANTHROPIC_API_KEY, 'ANTHROPIC_API_KEY', (apiKey) =>
    anthropicClient({ apiKey, model: config.ANTHROPIC_MODEL, baseUrl: config.ANTHROPIC_BASE_URL }),
  );
  add('gemini', config.GEMINI_API_KEY, 'GEMINI_API_KEY', (apiKey) =>
    geminiClient({ apiKey, model: config.GEMINI_MODEL, baseUrl: config.GEMINI_BASE_URL }),
  );
  skipped.push({ platform: 'copilot', reason: 'Microsoft offers no public API that answers as Copilot does' });
  return { clients, skipped };
}
