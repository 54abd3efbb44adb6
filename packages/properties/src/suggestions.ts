// Prompts and competitors a new property could start from, made only from what it already has
// (its name, brand terms, competitors, the category a person typed, the domains its answers cite):
// no network call, no guess presented as knowledge. Pure, tested with words.

/** At most this many of each are suggested. */
export const PROMPTS_SUGGESTED = 8;
export const COMPETITORS_SUGGESTED = 5;

/**
 * Sites AI answers cite for every brand alike (encyclopaedias, forums, review directories,
 * platforms): citing them says nothing about who competes with the property.
 */
const REFERENCE_SITES = [
  'wikipedia.org',
  'reddit.com',
  'youtube.com',
  'github.com',
  'medium.com',
  'stackoverflow.com',
  'quora.com',
  'linkedin.com',
  'x.com',
  'twitter.com',
  'facebook.com',
  'g2.com',
  'capterra.com',
  'trustpilot.com',
  'gartner.com',
  'forbes.com',
  'developer.mozilla.org',
  'google.com',
  'apple.com',
  'microsoft.com',
  'amazon.com',
];

const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

export interface SuggestionInput {
  name: string;
  domain: string;
  brandTerms: string[];
  prompts: string[];
  competitors: { name: string; domain: string | null }[];
  /** What the property sells, in a person's words (optional, never stored). */
  category?: string;
}

/** Prompt templates filled with the brand, its competitors and the category, less those it has. */
export function suggestPrompts(input: SuggestionInput): { text: string; why: string }[] {
  const brand = input.brandTerms[0] ?? input.name;
  const category = input.category?.trim().replace(/\s+/g, ' ');
  const candidates: { text: string; why: string }[] = [];
  if (category) {
    candidates.push(
      { text: `What are the best ${category} tools?`, why: `Buyers looking for ${category} ask this first.` },
      { text: `Is ${brand} good for ${category}?`, why: 'What an assistant says when asked about you directly.' },
      { text: `Which ${category} tool is best for a small business?`, why: 'A common buying question.' },
    );
  }
  candidates.push(
    { text: `What are the best alternatives to ${brand}?`, why: 'Shows who AI answers offer in your place.' },
    { text: `Is ${brand} worth it?`, why: 'What an assistant says when asked about you directly.' },
    { text: `How much does ${brand} cost?`, why: 'Pricing questions come right before buying.' },
  );
  for (const competitor of input.competitors.slice(0, 3)) {
    candidates.push(
      { text: `${brand} vs ${competitor.name}: which is better?`, why: `A head-to-head with ${competitor.name}.` },
      {
        text: `What are the best alternatives to ${competitor.name}?`,
        why: `Whether answers offer you to ${competitor.name}'s customers.`,
      },
    );
  }
  const have = new Set(input.prompts.map((p) => p.trim().toLowerCase()));
  const seen = new Set<string>();
  return candidates
    .filter((c) => {
      const key = c.text.toLowerCase();
      if (have.has(key) || seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, PROMPTS_SUGGESTED);
}

/** "initech-metrics.example" → "Initech Metrics": the domain's first label in words. */
export function nameFromDomain(domain: string): string {
  const label = domain.replace(/^www\./, '').split('.')[0] ?? domain;
  return label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * Domains the property's answers cite most, as competitors to consider: not its own, not one it
 * tracks, not a reference site. Most cited first.
 */
export function suggestCompetitors(
  input: Pick<SuggestionInput, 'domain' | 'competitors'>,
  cited: { domain: string; answers: number }[],
): { name: string; domain: string; citations: number }[] {
  const tracked = input.competitors.map((c) => c.domain).filter((d): d is string => !!d);
  const trackedNames = new Set(input.competitors.map((c) => c.name.toLowerCase()));
  return cited
    .filter(({ domain }) => !within(domain, input.domain) && !within(input.domain, domain))
    .filter(({ domain }) => !tracked.some((t) => within(domain, t)))
    .filter(({ domain }) => !REFERENCE_SITES.some((site) => within(domain, site)))
    .map(({ domain, answers }) => ({ name: nameFromDomain(domain), domain, citations: answers }))
    .filter((c) => c.name && !trackedNames.has(c.name.toLowerCase()))
    .sort((a, b) => b.citations - a.citations || a.domain.localeCompare(b.domain))
    .slice(0, COMPETITORS_SUGGESTED);
}
