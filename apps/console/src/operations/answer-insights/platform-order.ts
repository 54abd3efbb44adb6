/** The platforms' usual order (columns, filters); any other platform follows, alphabetically. */
const PLATFORM_ORDER = ['chatgpt', 'perplexity', 'claude', 'gemini', 'copilot'];

export function byPlatformOrder(a: string, b: string): number {
  const rank = (id: string) => {
    const at = PLATFORM_ORDER.indexOf(id);
    return at < 0 ? PLATFORM_ORDER.length : at;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}
