import type { AiPlatformId } from '@vt/attribution';
import type { AskOptions, CollectedAnswer, PlatformClient } from '../platforms/index.ts';

/** One call a recording client received: the prompt and the options it was asked with. */
export interface RecordedAsk {
  prompt: string;
  options: AskOptions | undefined;
}

/**
 * A PlatformClient that answers in memory and records every ask with its options (the location
 * included), for tests that check what the collector sends rather than one platform's wire
 * format. `answer` may throw (a PlatformError) to play a failing platform.
 */
export function recordingClient(
  platform: AiPlatformId,
  answer: (prompt: string, n: number) => CollectedAnswer | Promise<CollectedAnswer> = (prompt) => ({
    markdown: `About "${prompt}": Acme is good.`,
    citations: [],
  }),
): PlatformClient & { asked: RecordedAsk[] } {
  const asked: RecordedAsk[] = [];
  return {
    platform,
    model: `${platform}-test`,
    asked,
    async ask(prompt, options) {
      asked.push({ prompt, options });
      return answer(prompt, asked.length);
    },
  };
}
