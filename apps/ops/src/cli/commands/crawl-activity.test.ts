import { utcDay } from '@vt/db';
import { recordDeliveryAttempt } from '@vt/delivery-log';
import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { ops } from '../testing/run-ops.ts';

const db = testDb();

async function newProperty() {
  const slug = uniqueSlug('crawl-ops');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({ data: { teamId: team.id, name: slug, domain: 'example.com', plan: 'growth' } });
}

const attempt = (propertyId: string, statusCode: number) =>
  recordDeliveryAttempt(db, {
    propertyId,
    channel: 'crawl',
    statusCode,
    outcome: statusCode === 202 ? 'accepted: kept 1 of 10 lines' : 'rejected; nothing stored',
    linesReceived: statusCode === 202 ? 10 : undefined,
    linesKept: statusCode === 202 ? 1 : undefined,
    reason: statusCode === 202 ? undefined : 'invalid_token',
    fix: statusCode === 202 ? undefined : 'Use the current token.',
  });

describe('ops crawl status and log', () => {
  it('[CRAWL-30] walks Not verified → Connected → Rejecting → Disconnected → (reconnect) Not verified', async () => {
    const property = await newProperty();
    const status = async () => (await ops('crawl', 'status', '--property', property.id)).json.status;
    expect(await status()).toBe('not_verified');
    await attempt(property.id, 202);
    expect(await status()).toBe('connected');
    // A refusal after a batch accepted within 24 hours leaves it Connected; once that batch is
    // older, every recent attempt was turned away.
    await attempt(property.id, 401);
    expect(await status()).toBe('connected');
    await db.deliveryLogEntry.updateMany({
      where: { propertyId: property.id, statusCode: 202 },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    expect(await status()).toBe('rejecting');
    await ops('crawl', 'disconnect', '--property', property.id);
    expect(await status()).toBe('disconnected');
    await ops('crawl', 'reconnect', '--property', property.id);
    expect(await status()).toBe('not_verified');
    await attempt(property.id, 202);
    expect(await status()).toBe('connected');
  });

  it('[CRAWL-30] says Nothing arriving when the newest attempt is over 24 hours old', async () => {
    const property = await newProperty();
    await attempt(property.id, 202);
    await db.deliveryLogEntry.updateMany({
      where: { propertyId: property.id },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    expect((await ops('crawl', 'status', '--property', property.id)).json.status).toBe('nothing_arriving');
  });

  it('[CRAWL-28] the log lists the 50 newest attempts, newest first, with reason and fix on rejections', async () => {
    const property = await newProperty();
    for (let i = 0; i < 52; i++) await attempt(property.id, i % 2 ? 401 : 202);
    const { json } = await ops('crawl', 'log', '--property', property.id);
    expect(json.entries).toHaveLength(50);
    expect(json.entries[0]).toMatchObject({ statusCode: 401, reason: 'invalid_token', fix: 'Use the current token.' });
    expect(json.entries[1]).toMatchObject({ statusCode: 202, linesReceived: 10, linesMatched: 1, reason: null });
    const times = json.entries.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(await db.deliveryLogEntry.count({ where: { propertyId: property.id } })).toBe(50);
  });
});

describe('ops crawl activity', () => {
  it('[CRAWL-31] sums daily crawler hits by verification, crawlers, top pages and AI referrals over the range', async () => {
    const property = await newProperty();
    const today = utcDay(new Date());
    const longAgo = new Date(today.getTime() - 40 * 86_400_000);
    await db.crawlerDailyCount.createMany({
      data: [
        {
          propertyId: property.id,
          day: today,
          crawler: 'GPTBot',
          operator: 'openai',
          verification: 'verified',
          hits: 5,
        },
        {
          propertyId: property.id,
          day: today,
          crawler: 'GPTBot',
          operator: 'openai',
          verification: 'unverified',
          hits: 2,
        },
        {
          propertyId: property.id,
          day: today,
          crawler: 'ClaudeBot',
          operator: 'anthropic',
          verification: 'unverifiable',
          hits: 3,
        },
        {
          propertyId: property.id,
          day: longAgo,
          crawler: 'GPTBot',
          operator: 'openai',
          verification: 'verified',
          hits: 100,
        },
      ],
    });
    await db.crawledPage.createMany({
      data: [
        {
          propertyId: property.id,
          path: '/pricing',
          crawler: 'GPTBot',
          hits: 6,
          firstSeenAt: longAgo,
          lastSeenAt: today,
        },
        {
          propertyId: property.id,
          path: '/pricing',
          crawler: 'ClaudeBot',
          hits: 1,
          firstSeenAt: today,
          lastSeenAt: today,
        },
        { propertyId: property.id, path: '/blog', crawler: 'GPTBot', hits: 4, firstSeenAt: today, lastSeenAt: today },
      ],
    });
    await db.aiReferralDailyCount.createMany({
      data: [
        { propertyId: property.id, day: today, platform: 'chatgpt', landingPath: '/pricing', visits: 4 },
        { propertyId: property.id, day: today, platform: 'claude', landingPath: '/blog', visits: 1 },
      ],
    });
    const { json } = await ops('crawl', 'activity', '--property', property.id, '--days', '30');
    expect(json.daily).toEqual([
      { date: today.toISOString().slice(0, 10), hits: 10, verified: 5, unverified: 2, unverifiable: 3 },
    ]);
    expect(json.crawlers).toEqual([
      {
        crawler: 'GPTBot',
        operator: 'openai',
        operatorName: 'OpenAI',
        category: 'ai-training',
        countedAsAi: true,
        hits: 7,
        verified: 5,
      },
      {
        crawler: 'ClaudeBot',
        operator: 'anthropic',
        operatorName: 'Anthropic',
        category: 'ai-training',
        countedAsAi: true,
        hits: 3,
        verified: 0,
      },
    ]);
    expect(json.categories).toEqual([{ category: 'ai-training', countedAsAi: true, hits: 10, verified: 5 }]);
    expect(json.topPages.map((p: { path: string; hits: number }) => [p.path, p.hits])).toEqual([
      ['/pricing', 7],
      ['/blog', 4],
    ]);
    expect(json.topPages[0].firstSeenAt).toBe(longAgo.toISOString());
    expect(json.aiReferrals).toEqual([
      { platform: 'chatgpt', visits: 4 },
      { platform: 'claude', visits: 1 },
    ]);
  });
});

describe('ops crawl connections', () => {
  it('[CRAWL-30] lists every property with its status and counts them; --status nothing_arriving names the quiet ones', async () => {
    const quiet = await newProperty();
    await db.deliveryLogEntry.create({
      data: {
        propertyId: quiet.id,
        channel: 'crawl',
        statusCode: 202,
        outcome: 'accepted: kept 1 of 10 lines',
        createdAt: new Date(Date.now() - 30 * 3600 * 1000),
      },
    });
    const busy = await newProperty();
    await attempt(busy.id, 202);

    const all = await ops('crawl', 'connections');
    expect(all.code).toBe(0);
    const row = (id: string) => all.json.properties.find((p: { propertyId: string }) => p.propertyId === id);
    expect(row(busy.id)).toMatchObject({ status: 'connected', name: busy.name, domain: 'example.com', plan: 'growth' });
    const team = await db.team.findUniqueOrThrow({ where: { id: quiet.teamId } });
    expect(row(quiet.id)).toEqual({
      propertyId: quiet.id,
      team: team.slug,
      name: quiet.name,
      domain: 'example.com',
      plan: 'growth',
      status: 'nothing_arriving',
      lastCountedAttemptAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const total = Object.values(all.json.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    // Counted from the same reading (a property deleted meanwhile by another test is counted, not listed).
    expect(total).toBeGreaterThanOrEqual(all.json.properties.length);
    expect(all.json.counts.nothing_arriving).toBeGreaterThanOrEqual(1);

    const quietOnes = await ops('crawl', 'connections', '--status', 'nothing_arriving');
    const ids = quietOnes.json.properties.map((p: { propertyId: string }) => p.propertyId);
    expect(ids).toContain(quiet.id);
    expect(ids).not.toContain(busy.id);
    expect(quietOnes.json.properties.every((p: { status: string }) => p.status === 'nothing_arriving')).toBe(true);
    expect(quietOnes.json.counts.nothing_arriving).toBeGreaterThanOrEqual(ids.length);
  });
});
