import { AI_PLATFORMS, type AiPlatformId } from './ai-platforms.ts';

const PLATFORM_BY_HOST = new Map<string, AiPlatformId>(
  AI_PLATFORMS.flatMap((p) => p.hosts.map((host) => [host, p.id] as const)),
);

/**
 * The platform a host belongs to. A subdomain matches on a label boundary: `www.chatgpt.com`
 * matches, `notchatgpt.com` and `chatgpt.com.evil.test` do not. Walks the host's suffixes, so
 * the cost is a few map look-ups whatever the table's size.
 */
export function platformForHost(host: string): AiPlatformId | null {
  let candidate = host.trim().toLowerCase().replace(/\.$/, '');
  for (;;) {
    const hit = PLATFORM_BY_HOST.get(candidate);
    if (hit) return hit;
    const dot = candidate.indexOf('.');
    if (dot < 0) return null;
    candidate = candidate.slice(dot + 1);
  }
}

/** The host of a referrer given as a URL or a bare hostname (`chatgpt.com/`), or null. */
export function hostOfReferrer(referrer: string): string | null {
  const text = referrer.trim();
  if (text === '') return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  try {
    const host = new URL(withScheme).hostname;
    return host === '' ? null : host.toLowerCase();
  } catch {
    return null;
  }
}
