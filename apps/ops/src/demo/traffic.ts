import { addUtcDays, type Prisma, utcDay } from '@vt/db';
import type { Rng } from './content.ts';

// The demo's site traffic: what the crawl and lead workers would have counted from 90 days of a
// site's request log and lead webhook, for the console's activity views and setup dialogs. Rows
// are drawn from a seeded generator, so a rerun on the same day draws the same rows (and skips
// them); the keys are those the workers write, so the workers' own counts add to them.

/** Crawlers as the gateway names them (packages/attribution), with their share of a day's hits. */
const DEMO_CRAWLERS = [
  { crawler: 'GPTBot', operator: 'openai', weight: 30, verifiable: true },
  { crawler: 'OAI-SearchBot', operator: 'openai', weight: 12, verifiable: true },
  { crawler: 'ChatGPT-User', operator: 'openai', weight: 10, verifiable: true },
  { crawler: 'ClaudeBot', operator: 'anthropic', weight: 18, verifiable: false },
  { crawler: 'PerplexityBot', operator: 'perplexity', weight: 14, verifiable: true },
  { crawler: 'Perplexity-User', operator: 'perplexity', weight: 5, verifiable: true },
  { crawler: 'Bytespider', operator: 'bytedance', weight: 6, verifiable: false },
  // Dual-use: kept and listed, not counted as AI unless the property says so.
  { crawler: 'Applebot', operator: 'apple', weight: 12, verifiable: true },
] as const;

const DEMO_PATHS = [
  '/',
  '/pricing',
  '/docs/getting-started',
  '/blog/ai-search-guide',
  '/docs/api',
  '/compare',
  '/about',
];
/** Where AI-referred humans land, and from which platform, with their weights. */
const REFERRAL_PLATFORMS = [
  { platform: 'chatgpt', host: 'chatgpt.com', weight: 50 },
  { platform: 'perplexity', host: 'www.perplexity.ai', weight: 25 },
  { platform: 'claude', host: 'claude.ai', weight: 10 },
  { platform: 'gemini', host: 'gemini.google.com', weight: 10 },
  { platform: 'copilot', host: 'copilot.microsoft.com', weight: 5 },
] as const;
const LEAD_NAMES = ['ada', 'grace', 'linus', 'margaret', 'alan', 'barbara', 'ken', 'radia', 'edsger', 'frances'];
const MS_PER_DAY = 86_400_000;

export interface DemoTrafficRows {
  crawlerDailyCounts: Prisma.CrawlerDailyCountCreateManyInput[];
  crawledPages: Prisma.CrawledPageCreateManyInput[];
  aiReferrals: Prisma.AiReferralDailyCountCreateManyInput[];
  leads: Prisma.LeadCreateManyInput[];
  aiLeadCounts: Prisma.AiLeadDailyCountCreateManyInput[];
  deliveryLog: Prisma.DeliveryLogEntryCreateManyInput[];
}

function weighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let roll = rng() * items.reduce((sum, item) => sum + item.weight, 0);
  for (const item of items) {
    roll -= item.weight;
    if (roll < 0) return item;
  }
  return items[items.length - 1] as T;
}

/**
 * `days` of traffic ending yesterday for one property, growing over the range as AI search does:
 * `scale` sets the size of the site. `id(name)` gives the stable ids of rows that need one.
 */
export function demoTraffic(
  propertyId: string,
  { now, days, scale, rng, id }: { now: Date; days: number; scale: number; rng: Rng; id: (name: string) => string },
): DemoTrafficRows {
  const out: DemoTrafficRows = {
    crawlerDailyCounts: [],
    crawledPages: [],
    aiReferrals: [],
    leads: [],
    aiLeadCounts: [],
    deliveryLog: [],
  };
  const today = utcDay(now);
  const pages = new Map<string, { hits: number; first: Date; last: Date }>();

  // Whole days only, ending yesterday: a rerun the same day draws exactly the same rows.
  for (let back = days; back >= 1; back--) {
    const day = addUtcDays(today, -back);
    const dayKey = day.toISOString().slice(0, 10);
    const growth = 0.55 + (0.45 * (days - back)) / days;
    const weekday = [0, 6].includes(day.getUTCDay()) ? 0.7 : 1;
    const size = scale * growth * weekday;

    const hits = new Map<string, number>();
    for (let n = Math.round(size * (40 + rng() * 20)); n > 0; n--) {
      const c = weighted(rng, DEMO_CRAWLERS);
      const verification = !c.verifiable ? 'unverifiable' : rng() < 0.93 ? 'verified' : 'unverified';
      const key = `${c.crawler}|${c.operator}|${verification}`;
      hits.set(key, (hits.get(key) ?? 0) + 1);
      const path = DEMO_PATHS[Math.floor(rng() ** 2 * DEMO_PATHS.length)] as string;
      const at = new Date(day.getTime() + Math.floor(rng() * MS_PER_DAY));
      const page = pages.get(`${path}|${c.crawler}`);
      if (page) {
        page.hits += 1;
        if (at > page.last) page.last = at;
      } else pages.set(`${path}|${c.crawler}`, { hits: 1, first: at, last: at });
    }
    for (const [key, count] of hits) {
      const [crawler, operator, verification] = key.split('|') as [string, string, 'verified'];
      out.crawlerDailyCounts.push({ propertyId, day, crawler, operator, verification, hits: count });
    }

    const visits = new Map<string, number>();
    for (let n = Math.round(size * (6 + rng() * 6)); n > 0; n--) {
      const p = weighted(rng, REFERRAL_PLATFORMS);
      const path = DEMO_PATHS[Math.floor(rng() ** 1.5 * DEMO_PATHS.length)] as string;
      visits.set(`${p.platform}|${path}`, (visits.get(`${p.platform}|${path}`) ?? 0) + 1);
    }
    for (const [key, count] of visits) {
      const [platform, landingPath] = key.split('|') as [string, string];
      out.aiReferrals.push({ propertyId, day, platform, landingPath, visits: count });
    }

    const aiLeads = new Map<string, number>();
    const leadCount = Math.round(size * rng() * 1.6);
    for (let n = 0; n < leadCount; n++) {
      const fromAi = rng() < 0.7;
      const p = weighted(rng, REFERRAL_PLATFORMS);
      const name = `${LEAD_NAMES[Math.floor(rng() * LEAD_NAMES.length)]}.${dayKey.slice(5).replace('-', '')}${n}`;
      const receivedAt = new Date(day.getTime() + Math.floor(rng() * MS_PER_DAY));
      out.leads.push({
        id: id(`lead:${propertyId}:${dayKey}:${n}`),
        propertyId,
        eventId: `demo-${dayKey}-${n}`,
        contact: `${name}@example.com`,
        email: `${name}@example.com`,
        landingPath: fromAi ? '/pricing' : '/contact',
        referrer: fromAi ? `https://${p.host}/` : 'https://www.google.com/',
        utmSource: null,
        matched: fromAi,
        platform: fromAi ? p.platform : null,
        receivedAt,
        day,
      });
      if (fromAi) aiLeads.set(p.platform, (aiLeads.get(p.platform) ?? 0) + 1);
    }
    for (const [platform, leads] of aiLeads) out.aiLeadCounts.push({ propertyId, day, platform, leads });
  }

  for (const [key, page] of pages) {
    const [path, crawler] = key.split('|') as [string, string];
    out.crawledPages.push({
      propertyId,
      path,
      crawler,
      hits: page.hits,
      firstSeenAt: page.first,
      lastSeenAt: page.last,
    });
  }

  // The delivery logs: a batch every two hours up to midnight, one refused with its fix, and the
  // newest webhook attempts. Named by their time, so a rerun the same day adds nothing.
  for (let n = 0; n < 12; n++) {
    const at = new Date(today.getTime() - n * 2 * 3_600_000);
    const refused = n === 7;
    const lines = Math.round(4000 * scale + rng() * 1500);
    out.deliveryLog.push({
      id: id(`crawl-log:${propertyId}:${at.toISOString()}`),
      propertyId,
      channel: 'crawl',
      createdAt: at,
      statusCode: refused ? 413 : 202,
      outcome: refused ? 'rejected' : 'accepted',
      reason: refused ? 'PAYLOAD_TOO_LARGE' : null,
      fix: refused ? 'Send at most 10 MiB per batch (after gunzip): flush the shipper more often.' : null,
      linesReceived: refused ? null : lines,
      linesKept: refused ? null : Math.round(lines * 0.012),
    });
  }
  for (const lead of out.leads.slice(-5)) {
    out.deliveryLog.push({
      id: id(`webhook-log:${lead.id}`),
      propertyId,
      channel: 'webhook',
      createdAt: lead.receivedAt,
      statusCode: 200,
      outcome: 'stored lead',
      eventId: lead.eventId,
      requestBody: JSON.stringify({ contact: lead.contact, landingPath: lead.landingPath, referrer: lead.referrer }),
      leadId: lead.id,
    });
  }
  return out;
}
