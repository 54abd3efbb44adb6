import { AI_PLATFORMS, type AiPlatformId } from './ai-platforms.ts';

const PLATFORM_BY_HOST = new Map<string, AiPlatformId>(
  AI_PLATFORMS.flatMap((p) => p.hosts.map((host) => [host, p.id] as const)),
);

/** The longest a DNS name can be: a longer host names no platform. */
const MAX_HOST_LENGTH = 253;
/** Labels of the longest platform host: only that many trailing labels of a host can name one. */
const MOST_LABELS = Math.max(...[...PLATFORM_BY_HOST.keys()].map((host) => host.split('.').length));

/**
 * The platform a host belongs to. A subdomain matches on a label boundary: `www.chatgpt.com`
 * matches, `notchatgpt.com` and `chatgpt.com.evil.test` do not. Looks up only the host's last
 * few labels (as many as the longest platform host has), longest first, so the cost is a few map
 * look-ups whatever the host: walking every suffix of a long made-up host (thousands of labels
 * in an 8 KB referer) was quadratic, 27 ms a line.
 */
export function platformForHost(host: string): AiPlatformId | null {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  if (name.length > MAX_HOST_LENGTH) return null;
  // Where the suffixes of one, two, … MOST_LABELS labels start.
  const starts: number[] = [];
  for (let end = name.length; starts.length < MOST_LABELS; ) {
    const dot = name.lastIndexOf('.', end - 1);
    starts.push(dot + 1);
    if (dot <= 0) break;
    end = dot;
  }
  for (let i = starts.length - 1; i >= 0; i--) {
    const hit = PLATFORM_BY_HOST.get(name.slice(starts[i]));
    if (hit) return hit;
  }
  return null;
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
