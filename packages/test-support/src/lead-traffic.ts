import { createHmac } from 'node:crypto';

// Seeded lead webhook traffic with its ground truth, for end-to-end, fault and load tests and the
// benches (no vitest here). The truth comes from this file's own table of the spec's five AI
// platforms and the ways a referrer or utm_source names them, not from the service's classifier,
// so a classifier that drifts from the spec is caught.

/** One delivery as a sender makes it: the exact body it signs, and its x-webhook-id. */
export interface LeadDelivery {
  eventId: string;
  body: string;
  /** The platform the spec says this lead is attributed to; null: not attributed. */
  platform: string | null;
  /** True for a resend of an earlier delivery (same id, same body): stores nothing new. */
  repeat: boolean;
}

export interface LeadTraffic {
  deliveries: LeadDelivery[];
  truth: {
    /** Distinct x-webhook-ids: the leads that must be stored. */
    leads: number;
    /** Stored leads per platform (classified ones only). */
    byPlatform: Record<string, number>;
    unattributed: number;
    repeats: number;
  };
}

// How each platform arrives: a referrer URL, a bare host, a subdomain, or a utm_source value.
const PLATFORM_SIGNALS: Record<string, { referrer?: string; utmSource?: string }[]> = {
  chatgpt: [
    { referrer: 'https://chatgpt.com/' },
    { referrer: 'https://chat.openai.com/c/abc' },
    { utmSource: 'chatgpt.com' },
    { referrer: 'chatgpt.com' },
  ],
  perplexity: [{ referrer: 'https://www.perplexity.ai/search?q=x' }, { utmSource: 'perplexity.ai' }],
  claude: [{ referrer: 'https://claude.ai/chat/1' }, { referrer: 'claude.ai' }],
  gemini: [{ referrer: 'https://gemini.google.com/app' }],
  copilot: [{ referrer: 'https://copilot.microsoft.com/' }],
};
// Not AI: search engines, a look-alike host, a medium that never classifies, nothing at all.
const OTHER_SIGNALS: { referrer?: string; utmSource?: string; utmMedium?: string }[] = [
  { referrer: 'https://www.google.com/' },
  { referrer: 'https://www.bing.com/search?q=x' },
  { referrer: 'https://notchatgpt.com/' },
  { utmMedium: 'chatgpt' },
  { utmSource: 'newsletter' },
  {},
];

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same traffic everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` deliveries: about `aiShare` of the leads come from an AI platform, and about
 * `repeatShare` of the deliveries resend an earlier one (a sender's retry), in seeded order.
 */
export function generateLeadTraffic(options: {
  count: number;
  seed: number;
  aiShare?: number;
  repeatShare?: number;
}): LeadTraffic {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const aiShare = options.aiShare ?? 0.4;
  const repeatShare = options.repeatShare ?? 0.1;
  const platforms = Object.keys(PLATFORM_SIGNALS);
  const deliveries: LeadDelivery[] = [];
  const firsts: LeadDelivery[] = [];
  const byPlatform: Record<string, number> = {};
  for (let i = 0; i < options.count; i++) {
    if (firsts.length > 0 && random() < repeatShare) {
      deliveries.push({ ...pick(firsts), repeat: true });
      continue;
    }
    const platform = random() < aiShare ? pick(platforms) : null;
    const signal = platform ? pick(PLATFORM_SIGNALS[platform]!) : pick(OTHER_SIGNALS);
    const n = firsts.length;
    const lead = {
      contact: `Lead ${n}`,
      email: `lead${n}.${options.seed}@example.com`,
      landingPath: `/pricing?ref=${n}`,
      ...signal,
    };
    const delivery = { eventId: `evt_${options.seed}_${n}`, body: JSON.stringify(lead), platform, repeat: false };
    firsts.push(delivery);
    deliveries.push(delivery);
    if (platform) byPlatform[platform] = (byPlatform[platform] ?? 0) + 1;
  }
  const unattributed = firsts.filter((d) => d.platform === null).length;
  return {
    deliveries,
    truth: { leads: firsts.length, byPlatform, unattributed, repeats: deliveries.length - firsts.length },
  };
}

/**
 * The headers that sign a delivery as the spec says (`{id}.{timestamp}.{body}`, HMAC-SHA256, hex),
 * written here from the spec rather than taken from the service, so a drift is caught.
 */
export function signedLeadHeaders(secret: string, delivery: Pick<LeadDelivery, 'eventId' | 'body'>, now = Date.now()) {
  const timestamp = String(Math.floor(now / 1000));
  const signature = createHmac('sha256', secret)
    .update(`${delivery.eventId}.${timestamp}.${delivery.body}`)
    .digest('hex');
  return {
    'content-type': 'application/json',
    'x-webhook-id': delivery.eventId,
    'x-webhook-timestamp': timestamp,
    'x-webhook-signature': signature,
  };
}
