// Shared by the crawl-batch test files: each test seeds its own team and property, so files run
// in parallel on one database and every assertion is scoped to the test's property ids.
import { randomUUID } from 'node:crypto';
import { formatUtcDay } from '@vt/db';
import type { CrawlBatchJobData } from '@vt/queue';
import { testDb, uniqueSlug } from '@vt/test-support';
import { applyCrawlBatch, crawlBatchJobKey } from './crawl-batch.ts';

export type KeptEvent = CrawlBatchJobData['events'][number];

export const db = testDb();

export async function newProperty(): Promise<string> {
  const team = await db.team.create({ data: { name: 'Crawl worker', slug: uniqueSlug('crawl-worker') } });
  const property = await db.property.create({
    data: { teamId: team.id, name: 'Acme', domain: 'acme.example', brandTerms: [], plan: 'starter' },
  });
  return property.id;
}

export function crawlerVisit(
  at: string,
  path: string,
  crawler = 'GPTBot',
  operator = 'OpenAI',
  verification: KeptEvent['verification'] = 'verified',
): KeptEvent {
  return {
    occurredAt: at,
    host: 'acme.example',
    path,
    userAgent: `Mozilla/5.0 (compatible; ${crawler}/1.0)`,
    statusCode: 200,
    method: 'GET',
    crawler,
    operator,
    verification,
  };
}

export function aiReferral(at: string, path: string, platform = 'chatgpt'): KeptEvent {
  return {
    occurredAt: at,
    host: 'acme.example',
    path,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0',
    statusCode: 200,
    referer: 'https://chatgpt.com/',
    aiPlatform: platform,
  };
}

export function batch(propertyId: string, events: KeptEvent[], receivedAt = new Date()): CrawlBatchJobData {
  return { batchId: randomUUID(), chunk: 0, propertyId, receivedAt: receivedAt.toISOString(), events };
}

export const run = (data: CrawlBatchJobData) => applyCrawlBatch(data, { db });

/** Everything the worker writes for a property, in a stable order (raw events without their ids). */
export async function snapshot(propertyId: string) {
  const where = { propertyId };
  const [raw, crawlerDays, pages, referralDays] = await Promise.all([
    db.crawlEvent.findMany({ where, omit: { id: true }, orderBy: [{ occurredAt: 'asc' }, { path: 'asc' }] }),
    db.crawlerDailyCount.findMany({ where, orderBy: [{ day: 'asc' }, { crawler: 'asc' }, { verification: 'asc' }] }),
    db.crawledPage.findMany({ where, orderBy: [{ path: 'asc' }, { crawler: 'asc' }] }),
    db.aiReferralDailyCount.findMany({ where, orderBy: [{ day: 'asc' }, { platform: 'asc' }, { landingPath: 'asc' }] }),
  ]);
  return {
    raw,
    crawlerDays: crawlerDays.map((r) => ({ ...r, day: formatUtcDay(r.day), propertyId: undefined })),
    pages: pages.map((r) => ({ ...r, propertyId: undefined })),
    referralDays: referralDays.map((r) => ({ ...r, day: formatUtcDay(r.day), propertyId: undefined })),
  };
}

export const processedJob = (data: CrawlBatchJobData) =>
  db.processedJob.findUnique({ where: { jobKey: crawlBatchJobKey(data) } });

/** A batch touching every table: two crawlers on one page, a referral, a midnight crossing. */
export function mixedEvents(): KeptEvent[] {
  return [
    crawlerVisit('2026-03-01T23:59:59.999Z', '/pricing'),
    crawlerVisit('2026-03-02T00:00:00.000Z', '/pricing'),
    crawlerVisit('2026-03-02T08:00:00Z', '/pricing', 'ClaudeBot', 'Anthropic', 'unverifiable'),
    aiReferral('2026-03-02T09:00:00Z', '/pricing', 'perplexity'),
  ];
}
