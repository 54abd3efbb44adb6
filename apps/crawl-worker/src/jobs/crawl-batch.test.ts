import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  aiReferral,
  batch,
  crawlerVisit,
  mixedEvents,
  newProperty,
  processedJob,
  run,
  snapshot,
} from './crawl-batch.fixtures.ts';

describe('applyCrawlBatch: what a kept event contributes', () => {
  it('[CRAWL-31] counts crawler hits per UTC day, crawler, operator and verification, across midnight', async () => {
    const propertyId = await newProperty();
    const result = await run(
      batch(propertyId, [
        crawlerVisit('2026-03-01T23:59:59.999Z', '/a'),
        crawlerVisit('2026-03-02T01:30:00+02:00', '/b'), // 23:30 UTC on the 1st: the offset decides the day
        crawlerVisit('2026-03-02T00:00:00.000Z', '/a'),
        crawlerVisit('2026-03-02T10:00:00Z', '/a', 'GPTBot', 'OpenAI', 'unverified'),
        crawlerVisit('2026-03-02T11:00:00Z', '/a', 'OAI-SearchBot', 'OpenAI', 'verified'),
        crawlerVisit('2026-03-02T12:00:00Z', '/a', 'ClaudeBot', 'Anthropic', 'unverifiable'),
        crawlerVisit('2026-03-02T13:00:00Z', '/c', 'ClaudeBot', 'Anthropic', 'unverifiable'),
      ]),
    );
    expect(result).toEqual({ applied: true });
    const { crawlerDays, raw } = await snapshot(propertyId);
    const days = crawlerDays.map(({ day, crawler, operator, verification, hits }) => ({
      day,
      crawler,
      operator,
      verification,
      hits,
    }));
    expect(days).toEqual([
      { day: '2026-03-01', crawler: 'GPTBot', operator: 'OpenAI', verification: 'verified', hits: 2 },
      { day: '2026-03-02', crawler: 'ClaudeBot', operator: 'Anthropic', verification: 'unverifiable', hits: 2 },
      { day: '2026-03-02', crawler: 'GPTBot', operator: 'OpenAI', verification: 'verified', hits: 1 },
      { day: '2026-03-02', crawler: 'GPTBot', operator: 'OpenAI', verification: 'unverified', hits: 1 },
      { day: '2026-03-02', crawler: 'OAI-SearchBot', operator: 'OpenAI', verification: 'verified', hits: 1 },
    ]);
    expect(raw).toHaveLength(7);
  });

  it('[CRAWL-31] keeps the page inventory: hits per crawler, first and last seen across batches', async () => {
    const propertyId = await newProperty();
    await run(
      batch(propertyId, [
        crawlerVisit('2026-03-02T10:00:00Z', '/docs'),
        crawlerVisit('2026-03-02T12:00:00Z', '/docs'),
        crawlerVisit('2026-03-02T11:00:00Z', '/docs', 'ClaudeBot', 'Anthropic', 'verified'),
      ]),
    );
    // A later batch carrying both an older and a newer visit: first/last seen widen, never narrow.
    await run(
      batch(propertyId, [crawlerVisit('2026-03-02T09:00:00Z', '/docs'), crawlerVisit('2026-03-02T11:30:00Z', '/docs')]),
    );
    await run(batch(propertyId, [crawlerVisit('2026-03-03T08:00:00Z', '/docs')]));
    const { pages } = await snapshot(propertyId);
    expect(
      pages.map(({ path, crawler, hits, firstSeenAt, lastSeenAt }) => ({
        path,
        crawler,
        hits,
        firstSeenAt,
        lastSeenAt,
      })),
    ).toEqual([
      {
        path: '/docs',
        crawler: 'ClaudeBot',
        hits: 1,
        firstSeenAt: new Date('2026-03-02T11:00:00Z'),
        lastSeenAt: new Date('2026-03-02T11:00:00Z'),
      },
      {
        path: '/docs',
        crawler: 'GPTBot',
        hits: 5,
        firstSeenAt: new Date('2026-03-02T09:00:00Z'),
        lastSeenAt: new Date('2026-03-03T08:00:00Z'),
      },
    ]);
  });

  it('[CRAWL-31] counts AI-referred visits per UTC day, platform and landing path, apart from crawler activity', async () => {
    const propertyId = await newProperty();
    await run(
      batch(propertyId, [
        aiReferral('2026-03-02T10:00:00Z', '/pricing'),
        aiReferral('2026-03-02T11:00:00Z', '/pricing'),
        aiReferral('2026-03-02T12:00:00Z', '/blog/post'),
        aiReferral('2026-03-02T13:00:00Z', '/pricing', 'perplexity'),
        aiReferral('2026-03-03T00:00:00Z', '/pricing'),
      ]),
    );
    const { referralDays, crawlerDays, pages, raw } = await snapshot(propertyId);
    expect(
      referralDays.map(({ day, platform, landingPath, visits }) => ({ day, platform, landingPath, visits })),
    ).toEqual([
      { day: '2026-03-02', platform: 'chatgpt', landingPath: '/blog/post', visits: 1 },
      { day: '2026-03-02', platform: 'chatgpt', landingPath: '/pricing', visits: 2 },
      { day: '2026-03-02', platform: 'perplexity', landingPath: '/pricing', visits: 1 },
      { day: '2026-03-03', platform: 'chatgpt', landingPath: '/pricing', visits: 1 },
    ]);
    expect(crawlerDays).toEqual([]);
    expect(pages).toEqual([]);
    expect(raw[0]).toMatchObject({
      occurredAt: new Date('2026-03-02T10:00:00Z'),
      host: 'acme.example',
      path: '/pricing',
      statusCode: 200,
      method: null,
      referer: 'https://chatgpt.com/',
      crawler: null,
      operator: null,
      verification: null,
      aiPlatform: 'chatgpt',
    });
  });

  it('stores each kept event raw with the time the gateway received its batch', async () => {
    const propertyId = await newProperty();
    const receivedAt = new Date();
    await run(batch(propertyId, [crawlerVisit('2026-03-02T10:00:00.123Z', '/a')], receivedAt));
    const { raw } = await snapshot(propertyId);
    expect(raw).toEqual([
      {
        propertyId,
        occurredAt: new Date('2026-03-02T10:00:00.123Z'),
        receivedAt,
        host: 'acme.example',
        path: '/a',
        userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.0)',
        statusCode: 200,
        method: 'GET',
        referer: null,
        crawler: 'GPTBot',
        operator: 'OpenAI',
        verification: 'verified',
        aiPlatform: null,
      },
    ]);
  });

  it('[CRAWL-19] two batches carrying the same events count twice: there is no per-event deduplication', async () => {
    const propertyId = await newProperty();
    await run(batch(propertyId, mixedEvents()));
    await run(batch(propertyId, mixedEvents()));
    const { raw, crawlerDays, pages, referralDays } = await snapshot(propertyId);
    expect(raw).toHaveLength(8);
    expect(crawlerDays.map((r) => r.hits)).toEqual([2, 2, 2]);
    expect(pages.map((r) => [r.crawler, r.hits])).toEqual([
      ['ClaudeBot', 2],
      ['GPTBot', 4],
    ]);
    expect(referralDays.map((r) => r.visits)).toEqual([2]);
  });

  it('a batch for a property deleted since the gateway accepted it is a no-op, not a failing job', async () => {
    const data = batch(randomUUID(), mixedEvents());
    expect(await run(data)).toEqual({ applied: false, reason: 'property_gone' });
    expect(await processedJob(data)).toBeNull();
  });

  it('refuses a crawler event without operator or verification before writing anything', async () => {
    const propertyId = await newProperty();
    const { operator: _, ...noOperator } = crawlerVisit('2026-03-02T10:00:00Z', '/a');
    const data = batch(propertyId, [aiReferral('2026-03-02T09:00:00Z', '/a'), noOperator]);
    await expect(run(data)).rejects.toThrow(/lacks operator or verification/);
    expect(await snapshot(propertyId)).toEqual({ raw: [], crawlerDays: [], pages: [], referralDays: [] });
    expect(await processedJob(data)).toBeNull();
  });
});
