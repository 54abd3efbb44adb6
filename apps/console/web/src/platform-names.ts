// The AI platforms as marketers know them. The API speaks in ids (`chatgpt`); pages show names.
// A small local table until the shared one in @vt/contracts lands; an unknown id is shown as is.

const PLATFORM_NAMES: Record<string, string> = {
  chatgpt: 'ChatGPT',
  perplexity: 'Perplexity',
  claude: 'Claude',
  gemini: 'Gemini',
  copilot: 'Copilot',
};

export const platformName = (id: string) => PLATFORM_NAMES[id] ?? id;
