import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// GET /api/properties/{id}/activity?from=&to=: the daily counts the workers keep (crawler hits by
// verification, AI referrals, AI-attributed leads) summed over inclusive UTC days, the all-time
// page inventory, and the recent-leads feed. The default range is the 30 UTC days ending today on
// the console's clock; a reversed, too long or malformed range is refused with INVALID_PARAM.

const TODAY = new Date('2026-04-20T15:00:00Z');
// Sessions outlive a move of the clock to the next UTC day.
const h = createConsoleHarness({ now: TODAY, sessionTtlMs: 7 * 86_400_000 });
afterAll(() => h.close());

const day = (text: string) => new Date(`${text}T00:00:00Z`);

async function teamWithProperty() {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const create = async (name: string) =>
    (await as(owner).post('/api/properties', { name, domain: `${name.toLowerCase()}.example`, plan: 'growth' })).body
      .property.id as string;
  const id = await create('Shop');
  return { owner, member, as, id, create, activity: `/api/properties/${id}/activity` };
}

type Verification = 'verified' | 'unverified' | 'unverifiable';

/** Rows as the crawl and lead workers keep them, for one property. */
function rowsFor(propertyId: string) {
  return {
    crawl: (d: string, crawler: 'GPTBot' | 'ClaudeBot', verification: Verification, hits: number) => ({
      propertyId,
      day: day(d),
      crawler,
      operator: crawler === 'GPTBot' ? 'openai' : 'anthropic',
      verification,
      hits,
    }),
    page: (path: string, crawler: string, hits: number, firstSeenAt: string, lastSeenAt: string) => ({
      propertyId,
      path,
      crawler,
      hits,
      firstSeenAt: new Date(firstSeenAt),
      lastSeenAt: new Date(lastSeenAt),
    }),
    referral: (d: string, platform: string, landingPath: string, visits: number) => ({
      propertyId,
      day: day(d),
      platform,
      landingPath,
      visits,
    }),
    lead: (receivedAt: string, contact: string, platform: string | null) => ({
      propertyId,
      eventId: `evt-${contact}`,
      contact,
      email: `${contact}@example.test`,
      landingPath: '/pricing',
      referrer: platform ? `https://${platform}.example/` : null,
      utmSource: null,
      matched: platform !== null,
      platform,
      receivedAt: new Date(receivedAt),
      day: day(receivedAt.slice(0, 10)),
    }),
    aiLeads: (d: string, platform: string, leads: number) => ({ propertyId, day: day(d), platform, leads }),
  };
}

/** One of each kind of row on a day, for the default-range checks. */
async function seedOneDay(propertyId: string, d: string, hits: number) {
  const r = rowsFor(propertyId);
  await h.db.crawlerDailyCount.create({ data: r.crawl(d, 'GPTBot', 'verified', hits) });
  await h.db.aiReferralDailyCount.create({ data: r.referral(d, 'chatgpt', '/', hits) });
  await h.db.aiLeadDailyCount.create({ data: r.aiLeads(d, 'chatgpt', hits) });
}

describe('the activity of a day range', () => {
  it('sums crawler hits per day by verification and per crawler, inside the inclusive range only', async () => {
    const t = await teamWithProperty();
    const r = rowsFor(t.id);
    await h.db.crawlerDailyCount.createMany({
      data: [
        r.crawl('2026-03-31', 'GPTBot', 'verified', 100), // the day before `from`
        r.crawl('2026-04-01', 'GPTBot', 'verified', 5),
        r.crawl('2026-04-01', 'GPTBot', 'unverified', 2),
        r.crawl('2026-04-01', 'ClaudeBot', 'verified', 1),
        r.crawl('2026-04-03', 'ClaudeBot', 'unverifiable', 11),
        r.crawl('2026-04-03', 'GPTBot', 'verified', 3),
        r.crawl('2026-04-04', 'ClaudeBot', 'verified', 100), // the day after `to`
      ],
    });
    // Another property's counts on the same days stay out.
    const other = await t.create('Other');
    await h.db.crawlerDailyCount.create({ data: rowsFor(other).crawl('2026-04-01', 'GPTBot', 'verified', 1000) });

    const res = await t.as(t.member).get(`${t.activity}?from=2026-04-01&to=2026-04-03`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ propertyId: t.id, from: '2026-04-01', to: '2026-04-03' });
    expect(res.body.crawlerDaily).toEqual([
      { date: '2026-04-01', hits: 8, verified: 6, unverified: 2, unverifiable: 0 },
      { date: '2026-04-03', hits: 14, verified: 3, unverified: 0, unverifiable: 11 },
    ]);
    // Most hits first.
    expect(res.body.crawlers).toEqual([
      {
        crawler: 'ClaudeBot',
        operator: 'anthropic',
        operatorName: 'Anthropic',
        category: 'ai-training',
        countedAsAi: true,
        hits: 12,
        verified: 1,
      },
      {
        crawler: 'GPTBot',
        operator: 'openai',
        operatorName: 'OpenAI',
        category: 'ai-training',
        countedAsAi: true,
        hits: 10,
        verified: 8,
      },
    ]);
  });

  it('lists dual-use crawlers under their category, out of the AI totals and top pages unless the property counts them', async () => {
    const t = await teamWithProperty();
    const r = rowsFor(t.id);
    const dualUse = (d: string, crawler: string, hits: number) => ({
      ...r.crawl(d, 'GPTBot', 'verified', hits),
      crawler,
      operator: 'apple',
    });
    await h.db.crawlerDailyCount.createMany({
      data: [
        r.crawl('2026-04-01', 'GPTBot', 'verified', 5),
        r.crawl('2026-04-01', 'ClaudeBot', 'unverifiable', 2),
        dualUse('2026-04-01', 'Applebot', 40),
        dualUse('2026-04-02', 'Applebot', 30),
      ],
    });
    await h.db.crawledPage.createMany({
      data: [
        r.page('/pricing', 'GPTBot', 5, '2026-04-01T10:00:00Z', '2026-04-01T10:00:00Z'),
        r.page('/store', 'Applebot', 70, '2026-04-01T10:00:00Z', '2026-04-02T10:00:00Z'),
      ],
    });
    const read = () => t.as(t.member).get(`${t.activity}?from=2026-04-01&to=2026-04-03`);

    const byDefault = (await read()).body;
    expect(byDefault.countDualUseAsAi).toBe(false);
    expect(byDefault.crawlerDaily).toEqual([
      { date: '2026-04-01', hits: 7, verified: 5, unverified: 0, unverifiable: 2 },
    ]);
    expect(byDefault.crawlers[0]).toEqual({
      crawler: 'Applebot',
      operator: 'apple',
      operatorName: 'Apple',
      category: 'dual-use',
      countedAsAi: false,
      hits: 70,
      verified: 70,
    });
    expect(byDefault.categories).toEqual([
      { category: 'dual-use', countedAsAi: false, hits: 70, verified: 70 },
      { category: 'ai-training', countedAsAi: true, hits: 7, verified: 5 },
    ]);
    expect(byDefault.topPages.map((p: { path: string }) => p.path)).toEqual(['/pricing']);

    // An owner counts them: the same rows, now in the totals and the pages.
    const patched = await t.as(t.owner).patch(`/api/properties/${t.id}`, { countDualUseAsAi: true });
    expect(patched.body.property.countDualUseAsAi).toBe(true);
    const included = (await read()).body;
    expect(included.crawlerDaily).toEqual([
      { date: '2026-04-01', hits: 47, verified: 45, unverified: 0, unverifiable: 2 },
      { date: '2026-04-02', hits: 30, verified: 30, unverified: 0, unverifiable: 0 },
    ]);
    expect(included.categories[0]).toEqual({ category: 'dual-use', countedAsAi: true, hits: 70, verified: 70 });
    expect(included.topPages.map((p: { path: string }) => p.path)).toEqual(['/store', '/pricing']);
    // A member cannot change it.
    expect((await t.as(t.member).patch(`/api/properties/${t.id}`, { countDualUseAsAi: false })).status).toBe(403);
  });

  it('reads counts stored while Amazonbot and meta-webindexer were filed AI as dual-use once the catalogue files them so (issue 32)', async () => {
    // A deployment that ran the previous release has its catalogue stored (Amazonbot ai-training,
    // meta-webindexer ai-search) and counts stored under the agents' names; the category is looked
    // up at read time, so the newer bundled catalogue decides and nothing stored is rewritten.
    const previous = {
      version: '2026-11-26.1',
      operators: { amazon: {}, meta: {}, openai: {} },
      agents: [
        { name: 'GPTBot', operator: 'openai', category: 'ai-training' },
        { name: 'Amazonbot', operator: 'amazon', category: 'ai-training' },
        { name: 'meta-webindexer', operator: 'meta', category: 'ai-search' },
      ],
    };
    await h.db.agentCatalogueVersion.create({
      data: { version: previous.version, catalogue: previous, source: 'bundled' },
    });
    const t = await teamWithProperty();
    const r = rowsFor(t.id);
    const stored = (d: string, crawler: string, operator: string, hits: number) => ({
      ...r.crawl(d, 'GPTBot', 'unverifiable', hits),
      crawler,
      operator,
    });
    await h.db.crawlerDailyCount.createMany({
      data: [
        r.crawl('2026-04-01', 'GPTBot', 'verified', 5),
        stored('2026-04-01', 'Amazonbot', 'amazon', 9),
        stored('2026-04-02', 'meta-webindexer', 'meta', 4),
      ],
    });
    await h.db.crawledPage.createMany({
      data: [
        r.page('/pricing', 'GPTBot', 5, '2026-04-01T10:00:00Z', '2026-04-01T10:00:00Z'),
        r.page('/store', 'Amazonbot', 9, '2026-04-01T10:00:00Z', '2026-04-01T10:00:00Z'),
      ],
    });
    const read = async () => (await t.as(t.member).get(`${t.activity}?from=2026-04-01&to=2026-04-03`)).body;

    const byDefault = await read();
    expect(byDefault.crawlerDaily).toEqual([
      { date: '2026-04-01', hits: 5, verified: 5, unverified: 0, unverifiable: 0 },
    ]);
    expect(byDefault.crawlers).toEqual([
      expect.objectContaining({ crawler: 'Amazonbot', category: 'dual-use', countedAsAi: false, hits: 9 }),
      expect.objectContaining({ crawler: 'GPTBot', category: 'ai-training', countedAsAi: true, hits: 5 }),
      expect.objectContaining({ crawler: 'meta-webindexer', category: 'dual-use', countedAsAi: false, hits: 4 }),
    ]);
    expect(byDefault.topPages.map((p: { path: string }) => p.path)).toEqual(['/pricing']);

    await t.as(t.owner).patch(`/api/properties/${t.id}`, { countDualUseAsAi: true });
    const included = await read();
    expect(included.crawlerDaily.map((d: { hits: number }) => d.hits)).toEqual([14, 4]);
    expect(included.topPages.map((p: { path: string }) => p.path)).toEqual(['/store', '/pricing']);
  });

  it('lists the top pages over all crawlers, most read first, with first and last seen', async () => {
    const t = await teamWithProperty();
    const r = rowsFor(t.id);
    await h.db.crawledPage.createMany({
      data: [
        r.page('/pricing', 'GPTBot', 7, '2026-01-05T10:00:00Z', '2026-04-02T10:00:00Z'),
        r.page('/pricing', 'ClaudeBot', 2, '2026-03-01T10:00:00Z', '2026-04-10T08:00:00Z'),
        r.page('/', 'GPTBot', 5, '2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z'),
        r.page('/blog', 'ClaudeBot', 1, '2026-04-01T00:00:00Z', '2026-04-01T00:00:00Z'),
      ],
    });
    const res = await t.as(t.member).get(`${t.activity}?from=2026-04-01&to=2026-04-03`);
    expect(res.body.topPages).toEqual([
      { path: '/pricing', hits: 9, firstSeenAt: '2026-01-05T10:00:00.000Z', lastSeenAt: '2026-04-10T08:00:00.000Z' },
      { path: '/', hits: 5, firstSeenAt: '2026-02-01T00:00:00.000Z', lastSeenAt: '2026-02-02T00:00:00.000Z' },
      { path: '/blog', hits: 1, firstSeenAt: '2026-04-01T00:00:00.000Z', lastSeenAt: '2026-04-01T00:00:00.000Z' },
    ]);
  });

  it('sums AI referrals by platform, by day and platform, and by landing path, inside the range only', async () => {
    const t = await teamWithProperty();
    const r = rowsFor(t.id);
    await h.db.aiReferralDailyCount.createMany({
      data: [
        r.referral('2026-03-31', 'perplexity', '/old', 50), // before
        r.referral('2026-04-01', 'chatgpt', '/pricing', 3),
        r.referral('2026-04-01', 'chatgpt', '/', 1),
        r.referral('2026-04-01', 'perplexity', '/pricing', 2),
        r.referral('2026-04-03', 'perplexity', '/blog', 4),
        r.referral('2026-04-03', 'claude', '/pricing', 1),
        r.referral('2026-04-04', 'claude', '/late', 50), // after
      ],
    });
    const res = await t.as(t.member).get(`${t.activity}?from=2026-04-01&to=2026-04-03`);
    expect(res.body.aiReferrals).toEqual([
      { platform: 'perplexity', visits: 6 },
      { platform: 'chatgpt', visits: 4 },
      { platform: 'claude', visits: 1 },
    ]);
    expect(res.body.aiReferralsDaily).toEqual([
      { date: '2026-04-01', platform: 'chatgpt', visits: 4 },
      { date: '2026-04-01', platform: 'perplexity', visits: 2 },
      { date: '2026-04-03', platform: 'claude', visits: 1 },
      { date: '2026-04-03', platform: 'perplexity', visits: 4 },
    ]);
    expect(res.body.topLandingPaths).toEqual([
      { path: '/pricing', visits: 6 },
      { path: '/blog', visits: 4 },
      { path: '/', visits: 1 },
    ]);
  });

  it('lists recent leads newest first, matched or not, and AI-attributed leads per day inside the range only', async () => {
    const t = await teamWithProperty();
    const r = rowsFor(t.id);
    await h.db.lead.createMany({
      data: [
        r.lead('2026-04-01T09:00:00Z', 'ada', 'chatgpt'),
        r.lead('2026-04-02T12:00:00Z', 'bo', null),
        r.lead('2026-04-03T23:59:59Z', 'cy', 'perplexity'),
        r.lead('2026-04-01T08:00:00Z', 'di', null),
      ],
    });
    await h.db.aiLeadDailyCount.createMany({
      data: [
        r.aiLeads('2026-03-31', 'chatgpt', 40), // before
        r.aiLeads('2026-04-01', 'chatgpt', 1),
        r.aiLeads('2026-04-03', 'perplexity', 1),
        r.aiLeads('2026-04-03', 'chatgpt', 2),
        r.aiLeads('2026-04-04', 'claude', 40), // after
      ],
    });
    const res = await t.as(t.member).get(`${t.activity}?from=2026-04-01&to=2026-04-03`);
    expect(res.body.recentLeads).toEqual([
      {
        id: expect.any(String),
        receivedAt: '2026-04-03T23:59:59.000Z',
        contact: 'cy',
        email: 'cy@example.test',
        platform: 'perplexity',
        matched: true,
        landingPath: '/pricing',
        referrer: 'https://perplexity.example/',
        utmSource: null,
      },
      expect.objectContaining({ contact: 'bo', matched: false, platform: 'unclassified', referrer: null }),
      expect.objectContaining({ contact: 'ada', matched: true, platform: 'chatgpt' }),
      expect.objectContaining({ contact: 'di', matched: false, platform: 'unclassified' }),
    ]);
    expect(res.body.aiLeadsDaily).toEqual([
      { date: '2026-04-01', platform: 'chatgpt', leads: 1 },
      { date: '2026-04-03', platform: 'chatgpt', leads: 2 },
      { date: '2026-04-03', platform: 'perplexity', leads: 1 },
    ]);
  });

  it('keeps the recent-leads feed to the 50 newest', async () => {
    const t = await teamWithProperty();
    const r = rowsFor(t.id);
    // 52 leads on 2026-04-02, one a minute from 10:00.
    await h.db.lead.createMany({
      data: Array.from({ length: 52 }, (_, n) =>
        r.lead(new Date(Date.parse('2026-04-02T10:00:00Z') + n * 60_000).toISOString(), `lead${n}`, null),
      ),
    });
    const res = await t.as(t.member).get(`${t.activity}?from=2026-04-01&to=2026-04-03`);
    expect(res.body.recentLeads.map((l: { contact: string }) => l.contact)).toEqual(
      Array.from({ length: 50 }, (_, i) => `lead${51 - i}`),
    );
  });

  it('answers empty lists for a range with nothing in it', async () => {
    const t = await teamWithProperty();
    await seedOneDay(t.id, '2026-04-10', 5);
    const res = await t.as(t.member).get(`${t.activity}?from=2026-01-01&to=2026-01-31`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      propertyId: t.id,
      from: '2026-01-01',
      to: '2026-01-31',
      countDualUseAsAi: false,
      crawlerDaily: [],
      crawlers: [],
      categories: [],
      topPages: [],
      aiReferrals: [],
      aiReferralsDaily: [],
      topLandingPaths: [],
      recentLeads: [],
      aiLeadsDaily: [],
      platformNames: {},
      crawlerRangesLoaded: (await h.db.crawlerIpRangeSet.count()) > 0,
    });
  });
});

describe('the default range', () => {
  it('is the 30 UTC days ending today on the console’s clock', async () => {
    const t = await teamWithProperty();
    // Today is 2026-04-20: the range is 2026-03-22 .. 2026-04-20.
    await seedOneDay(t.id, '2026-03-21', 1000); // the day before the range
    await seedOneDay(t.id, '2026-03-22', 1);
    await seedOneDay(t.id, '2026-04-20', 2);
    await seedOneDay(t.id, '2026-04-21', 1000); // tomorrow
    const res = await t.as(t.member).get(t.activity);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: '2026-03-22', to: '2026-04-20' });
    expect(res.body.crawlerDaily.map((d: { date: string; hits: number }) => [d.date, d.hits])).toEqual([
      ['2026-03-22', 1],
      ['2026-04-20', 2],
    ]);
    expect(res.body.aiReferrals).toEqual([{ platform: 'chatgpt', visits: 3 }]);
    // Platforms in words, for the tables and chart legends.
    expect(res.body.platformNames).toMatchObject({ chatgpt: 'ChatGPT' });
    expect(res.body.aiLeadsDaily.map((d: { date: string }) => d.date)).toEqual(['2026-03-22', '2026-04-20']);
  });

  it('follows the clock across UTC midnight, and fills a missing end of the range', async () => {
    const t = await teamWithProperty();
    try {
      h.setNow(new Date('2026-04-20T23:59:59.999Z'));
      expect((await t.as(t.member).get(t.activity)).body).toMatchObject({ from: '2026-03-22', to: '2026-04-20' });
      h.setNow(new Date('2026-04-21T00:00:00.000Z'));
      expect((await t.as(t.member).get(t.activity)).body).toMatchObject({ from: '2026-03-23', to: '2026-04-21' });
    } finally {
      h.setNow(TODAY);
    }
    // Only `to`: the 30 days ending then. Only `from`: from then to today.
    expect((await t.as(t.member).get(`${t.activity}?to=2026-01-30`)).body).toMatchObject({
      from: '2026-01-01',
      to: '2026-01-30',
    });
    expect((await t.as(t.member).get(`${t.activity}?from=2026-04-15`)).body).toMatchObject({
      from: '2026-04-15',
      to: '2026-04-20',
    });
  });
});

describe('a refused range', () => {
  it('answers 400 INVALID_PARAM when from is after to', async () => {
    const t = await teamWithProperty();
    const res = await t.as(t.member).get(`${t.activity}?from=2026-04-10&to=2026-04-09`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_PARAM',
      details: [{ path: 'from', message: expect.any(String) }],
    });
    // One day, from = to, is a range.
    expect((await t.as(t.member).get(`${t.activity}?from=2026-04-10&to=2026-04-10`)).status).toBe(200);
  });

  it('answers 400 INVALID_PARAM for a range over 366 days, and takes exactly 366', async () => {
    const t = await teamWithProperty();
    const tooLong = await t.as(t.member).get(`${t.activity}?from=2025-01-01&to=2026-01-02`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'INVALID_PARAM', details: [{ path: 'from' }] });
    const longest = await t.as(t.member).get(`${t.activity}?from=2025-01-01&to=2026-01-01`);
    expect(longest.status).toBe(200);
    expect(longest.body).toMatchObject({ from: '2025-01-01', to: '2026-01-01' });
  });

  it('answers 400 INVALID_PARAM naming the field for a malformed date', async () => {
    const t = await teamWithProperty();
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['from=2026-4-1', 'from'],
      ['to=yesterday', 'to'],
      ['to=2026-04-01T00:00:00Z', 'to'],
      ['from=2026-04-01&to=', 'to'],
    ] as const) {
      const res = await t.as(t.member).get(`${t.activity}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('INVALID_PARAM');
      expect(res.body.error.details, query).toEqual([{ path: field, message: expect.any(String) }]);
    }
  });
});
