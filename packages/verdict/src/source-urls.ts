import normalizeUrl from 'normalize-url';

/** Query parameters that say who sent a visitor, not what the page is. */
const TRACKING_PARAMETERS = [
  /^utm_\w+$/i,
  'gclid',
  'fbclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  'igshid',
  'yclid',
  'ref_src',
];

/**
 * A cited URL as stored: http(s) only, scheme and host lower-cased, default port, fragment and
 * tracking parameters dropped; path, other parameters and `www.` kept. Null for anything else.
 */
function normalizeSourceUrl(raw: string): string | null {
  const text = raw.trim();
  if (!/^(?:https?:\/\/|www\.)/i.test(text)) return null;
  try {
    return normalizeUrl(text, {
      defaultProtocol: 'https',
      stripWWW: false,
      stripHash: true,
      removeTrailingSlash: false,
      removeSingleSlash: true,
      sortQueryParameters: false,
      removeQueryParameters: TRACKING_PARAMETERS,
    });
  } catch {
    return null;
  }
}

/** The lower-case host without a leading `www.`: what /v1/sources groups by. */
export const sourceDomain = (url: string) => new URL(url).hostname.replace(/^www\./, '');

/** The platform's citations, then the answer's own links, normalised, each once, first place kept. */
export function collectSourceUrls(citations: readonly string[], links: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of [...citations, ...links]) {
    const url = normalizeSourceUrl(raw);
    if (url) seen.add(url);
  }
  return [...seen];
}
