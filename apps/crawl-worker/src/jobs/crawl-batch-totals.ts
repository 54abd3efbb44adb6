import { formatUtcDay } from '@vt/db';
import type { CrawlBatchJobData } from '@vt/queue';

type KeptEvent = CrawlBatchJobData['events'][number];
type Verification = NonNullable<KeptEvent['verification']>;

export interface CrawlerDayTotal {
  day: string;
  crawler: string;
  operator: string;
  verification: Verification;
  hits: number;
}

export interface PageTotal {
  path: string;
  crawler: string;
  hits: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

export interface ReferralDayTotal {
  day: string;
  platform: string;
  landingPath: string;
  visits: number;
}

export interface CrawlBatchTotals {
  crawlerDays: CrawlerDayTotal[];
  pages: PageTotal[];
  referralDays: ReferralDayTotal[];
}

/**
 * Sums one batch per target row. Aggregating first is required, not an optimisation: one
 * `INSERT … ON CONFLICT DO UPDATE` may not touch the same row twice. Each list is sorted by its
 * key so that concurrent jobs of one property lock shared rows in the same order (no deadlocks).
 */
export function totalCrawlBatch(events: readonly KeptEvent[]): CrawlBatchTotals {
  const crawlerDays = new Map<string, CrawlerDayTotal>();
  const pages = new Map<string, PageTotal>();
  const referralDays = new Map<string, ReferralDayTotal>();
  for (const event of events) {
    const at = new Date(event.occurredAt);
    const day = formatUtcDay(at); // the UTC day the instant falls on
    if (event.crawler !== undefined) {
      const { crawler, operator, verification } = event;
      if (operator === undefined || verification === undefined) {
        // The gateway sets all three together; a job without them is a producer bug, and
        // counting it under an invented operator would put wrong figures in front of customers.
        throw new Error('crawl-batch: a crawler event lacks operator or verification');
      }
      const dayKey = [day, crawler, operator, verification].join('\0');
      const dayTotal = crawlerDays.get(dayKey);
      if (dayTotal) dayTotal.hits += 1;
      else crawlerDays.set(dayKey, { day, crawler, operator, verification, hits: 1 });

      const pageKey = [event.path, crawler].join('\0');
      const page = pages.get(pageKey);
      if (!page) pages.set(pageKey, { path: event.path, crawler, hits: 1, firstSeenAt: at, lastSeenAt: at });
      else {
        page.hits += 1;
        if (at < page.firstSeenAt) page.firstSeenAt = at;
        if (at > page.lastSeenAt) page.lastSeenAt = at;
      }
    }
    if (event.aiPlatform !== undefined) {
      const key = [day, event.aiPlatform, event.path].join('\0');
      const referral = referralDays.get(key);
      if (referral) referral.visits += 1;
      else referralDays.set(key, { day, platform: event.aiPlatform, landingPath: event.path, visits: 1 });
    }
  }
  return {
    crawlerDays: sortedValues(crawlerDays),
    pages: sortedValues(pages),
    referralDays: sortedValues(referralDays),
  };
}

function sortedValues<T>(map: Map<string, T>): T[] {
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
}
