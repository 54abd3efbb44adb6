import { AI_PLATFORMS, aiPlatformName } from '@vt/attribution/ai-platforms';

// The AI platforms by the names people know them by (ChatGPT, not `chatgpt`), for every view that
// shows one. The ids stay what the API and its filters speak. No other runtime import, so the web
// UI bundles these lines and the platform list only.

/** The product name of a platform id; an id it does not know is shown as it is. */
export const platformName = aiPlatformName;

/** Every platform id, in the service's order (ChatGPT, Perplexity, Claude, Gemini, Copilot). */
export const PLATFORM_IDS: readonly string[] = AI_PLATFORMS.map((p) => p.id);
