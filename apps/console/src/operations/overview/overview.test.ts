import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// GET /api/overview: each property's figures over a range beside the previous period of the same
// length, the team total, each property's setup checklist, and what changed between the last 7
// days and the 7 before. The data is written as the workers write it (answers with their verdicts,
// competitor mentions, daily crawler, referral and lead counts); every expected figure below is
// worked out by hand from it in the comments.

const TODAY = new Date('2026-04-20T15:00:00Z');
const h = createConsoleHarness({ now: TODAY, sessionTtlMs: 7 * 86_400_000 });
afterAll(() => h.close());

const day = (text: string) => new Date(`${text}T00:00:00Z`);
// The range 2026-04-07..2026-04-20 (14 days): the previous period is 2026-03-24..2026-04-06, the
// last week 04-14..04-20 and the week before 04-07..04-13.
const RANGE = 'from=2026-04-07&to=2026-04-20';
const LAST_WEEK = '2026-04-15';
const WEEK_BEFORE = '2026-04-10';
const PREVIOUS = '2026-03-30';

async function seededTeam() {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const create = async (name: string) =>
    (await as(owner).post('/api/properties', { name, domain: `${name.toLowerCase()}.example`, plan: 'growth' })).body
      .property.id as string;
  const shop = await create('Shop');
  const blog = await create('Blog');
  const competitor = async (name: string) =>
    (await as(owner).post(`/api/properties/${shop}/competitors`, { name })).body.competitor.id as string;
  const globex = await competitor('Globex');
  const initech = await competitor('Initech');
  const prompts: { id: string }[] = [];
  for (let i = 0; i < 10; i++) {
    prompts.push(await h.db.prompt.create({ data: { propertyId: shop, text: `prompt ${i}` } }));
  }

  /** ChatGPT's answer to prompt i on a day: mentioned at `position` with `sentiment`, or not. */
  async function answer(i: number, d: string, verdict: { position: number; sentiment: number } | null) {
    const prompt = prompts[i] as { id: string };
    return h.db.response.create({
      data: {
        propertyId: shop,
        promptId: prompt.id,
        model: 'chatgpt',
        day: day(d),
        mentioned: verdict !== null,
        matchedTerm: verdict ? 'Shop' : null,
        position: verdict?.position ?? null,
        sentiment: verdict?.sentiment ?? null,
        excerpt: 'an answer',
        text: 'an answer',
      },
    });
  }
  const named = (response: { id: string; day: Date }, competitorId: string, position: number) =>
    h.db.responseCompetitorMention.create({
      data: { responseId: response.id, competitorId, position, propertyId: shop, day: response.day, model: 'chatgpt' },
    });

  // Last week: 10 answers, 8 mention the brand at 100 with sentiment 0.5. In answers 0–1 Globex is
  // named first (rank 2), in answer 2 Globex and Initech are (rank 3), answers 3–7 rank 1: ranks
  // sum to 2+2+3+5 = 12. The two answers without the brand name Globex; one of them Initech too.
  const last = [];
  for (let i = 0; i < 10; i++) last.push(await answer(i, LAST_WEEK, i < 8 ? { position: 100, sentiment: 0.5 } : null));
  for (const i of [0, 1, 2]) await named(last[i] as { id: string; day: Date }, globex, 50);
  await named(last[2] as { id: string; day: Date }, initech, 20);
  for (const i of [8, 9]) await named(last[i] as { id: string; day: Date }, globex, 5);
  await named(last[9] as { id: string; day: Date }, initech, 30);
  // The week before: 10 answers, 4 mention the brand at 10 with sentiment -0.25, Globex named
  // after it in each (rank 1).
  for (let i = 0; i < 10; i++) {
    const r = await answer(i, WEEK_BEFORE, i < 4 ? { position: 10, sentiment: -0.25 } : null);
    if (i < 4) await named(r, globex, 200);
  }
  // The previous period: 10 answers, 5 mention the brand at 10 with sentiment 0.2, no competitor.
  for (let i = 0; i < 10; i++) await answer(i, PREVIOUS, i < 5 ? { position: 10, sentiment: 0.2 } : null);

  const crawl = (d: string, crawler: string, operator: string, hits: number) =>
    h.db.crawlerDailyCount.create({
      data: { propertyId: shop, day: day(d), crawler, operator, verification: 'verified', hits },
    });
  await crawl(LAST_WEEK, 'GPTBot', 'openai', 140);
  await crawl(WEEK_BEFORE, 'GPTBot', 'openai', 100);
  await crawl(LAST_WEEK, 'ClaudeBot', 'anthropic', 12);
  // Dual-use: kept, not counted as AI (the property does not count dual-use crawlers).
  await crawl(LAST_WEEK, 'Applebot', 'apple', 50);
  await crawl(PREVIOUS, 'GPTBot', 'openai', 60);
  const visits = (d: string, platform: string, n: number) =>
    h.db.aiReferralDailyCount.create({
      data: { propertyId: shop, day: day(d), platform, landingPath: '/', visits: n },
    });
  await visits(LAST_WEEK, 'chatgpt', 30);
  await visits(WEEK_BEFORE, 'chatgpt', 20);
  const leads = (d: string, platform: string, n: number) =>
    h.db.aiLeadDailyCount.create({ data: { propertyId: shop, day: day(d), platform, leads: n } });
  await leads('2026-04-17', 'perplexity', 3);
  await leads(PREVIOUS, 'chatgpt', 2);
  // A crawl batch accepted: the crawl step of the checklist is done.
  await h.db.deliveryLogEntry.create({
    data: { propertyId: shop, channel: 'crawl', statusCode: 202, outcome: 'accepted', createdAt: TODAY },
  });
  return { owner, member, as, shop, blog };
}

describe('the home overview', () => {
  it("computes each property's figures and their trends against the previous period", async () => {
    const t = await seededTeam();
    const res = await t.as(t.member).get(`/api/overview?${RANGE}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      from: '2026-04-07',
      to: '2026-04-20',
      previousFrom: '2026-03-24',
      previousTo: '2026-04-06',
    });
    expect(res.body.properties.map((p: { name: string }) => p.name)).toEqual(['Blog', 'Shop']);
    const shop = res.body.properties.find((p: { id: string }) => p.id === t.shop).figures;
    // Visibility: 12 of 20 answers (60%) against 5 of 10 (50%): +10 points.
    expect(shop.answers).toBe(20);
    expect(shop.visibility).toEqual({ current: 60, previous: 50, changePoints: 10, trend: 'up' });
    // Share of voice: brand 12 over 12 + Globex 9 + Initech 2 = 23 → 52.2%; before 5 of 5 → 100%.
    expect(shop.shareOfVoice).toEqual({ current: 52.2, previous: 100, changePoints: -47.8, trend: 'down' });
    // Rank: (12 + 4) / 12 answers = 1.33 against 5 / 5 = 1: named later (worse).
    expect(shop.averageRank).toEqual({ current: 1.33, previous: 1, change: 0.33, trend: 'up' });
    // Sentiment: (8 × 0.5 + 4 × −0.25) / 12 = 0.25 against 0.2.
    expect(shop.averageSentiment).toEqual({ current: 0.25, previous: 0.2, change: 0.05, trend: 'up' });
    // Crawler hits: 140 + 100 + 12 (Applebot, dual-use, left out) against 60: +320%.
    expect(shop.crawlerHits).toEqual({ current: 252, previous: 60, changePercent: 320, trend: 'up' });
    // Visits: 50 against none: new. Leads: 3 against 2: +50%.
    expect(shop.aiVisits).toEqual({ current: 50, previous: 0, changePercent: null, trend: 'new' });
    expect(shop.aiLeads).toEqual({ current: 3, previous: 2, changePercent: 50, trend: 'up' });

    const blog = res.body.properties.find((p: { id: string }) => p.id === t.blog).figures;
    expect(blog.visibility).toEqual({ current: null, previous: null, changePoints: null, trend: 'none' });
    expect(blog.crawlerHits).toEqual({ current: 0, previous: 0, changePercent: null, trend: 'none' });
    // Blog tracks no competitor: no share of voice or rank to read.
    expect(blog.shareOfVoice).toBeNull();
    expect(blog.averageRank).toBeNull();

    // The team: Shop's answers and counts (Blog has none); share of voice and rank are per property.
    expect(res.body.total).toMatchObject({
      answers: 20,
      visibility: { current: 60, previous: 50, changePoints: 10, trend: 'up' },
      shareOfVoice: null,
      averageRank: null,
      crawlerHits: { current: 252, previous: 60 },
    });
  });

  it('lists what changed between the last 7 days and the 7 before, largest first', async () => {
    const t = await seededTeam();
    const res = await t.as(t.owner).get(`/api/overview?${RANGE}`);
    expect(res.body.whatChanged.from).toBe('2026-04-14');
    expect(res.body.whatChanged.to).toBe('2026-04-20');
    // Weights: visibility 40/5 = 8; leads 2 + 3 = 5; ClaudeBot 12/5 = 2.4; ChatGPT visits 50/25 = 2;
    // GPTBot 40/25 = 1.6; Initech 1 + 2/2/2 = 1.5. Share of voice (8 voices the week before) and
    // rank (4 ranked answers the week before) have too few to count.
    expect(res.body.whatChanged.changes.map((c: { text: string }) => c.text)).toEqual([
      'Visibility on ChatGPT rose 40 points (from 40% to 80% of answers)',
      '3 AI leads from Perplexity (none the week before)',
      'ClaudeBot visits started: 12, none the week before',
      'Visits referred by ChatGPT up 50% (from 20 to 30)',
      'GPTBot visits up 40% (from 100 to 140)',
      'A new competitor, Initech, was named in 2 answers (none the week before)',
    ]);
    expect(res.body.whatChanged.changes[0]).toMatchObject({
      propertyName: 'Shop',
      propertyId: t.shop,
      kind: 'visibility',
      direction: 'up',
    });
  });

  it('re-reads the rank when an answer is re-judged: competitors before the brand are counted from its new position', async () => {
    const t = await seededTeam();
    const rank = async () =>
      (await t.as(t.member).get(`/api/overview?${RANGE}`)).body.properties.find((p: { id: string }) => p.id === t.shop)
        .figures.averageRank.current;
    expect(await rank()).toBe(1.33);
    // The week before's 4 mentioning answers named Globex at 200, after the brand at 10. Re-judged
    // with the brand at 300, Globex comes first in each: ranks sum to 12 + 4 × 2 = 20 over 12.
    await h.db.response.updateMany({
      where: { propertyId: t.shop, day: day(WEEK_BEFORE), mentioned: true },
      data: { position: 300 },
    });
    expect(await rank()).toBe(1.67);
  });

  it('shows which setup steps each property has done', async () => {
    const t = await seededTeam();
    const res = await t.as(t.member).get(`/api/overview?${RANGE}`);
    const steps = (id: string) =>
      res.body.properties
        .find((p: { id: string }) => p.id === id)
        .setup.steps.map((s: { step: string; done: boolean; detail: string }) => [s.step, s.done, s.detail]);
    expect(steps(t.shop)).toEqual([
      ['prompts', true, '10 prompts asked'],
      ['competitors', true, '2 competitors tracked'],
      ['crawl', true, 'Last batch accepted on 2026-04-20'],
      ['webhook', false, 'No lead has arrived yet'],
      ['answers', true, '30 answers stored, the latest on 2026-04-15'],
    ]);
    expect(steps(t.blog).map(([, done]: [string, boolean]) => done)).toEqual([false, false, false, false, false]);
  });

  it("reads only the current team's properties and refuses a bad range with INVALID_PARAM", async () => {
    const t = await seededTeam();
    const stranger = await h.signUp('stranger');
    const { teamId } = await h.teamOf(stranger);
    const own = await h.as(stranger.token, teamId).get(`/api/overview?${RANGE}`);
    expect(own.status).toBe(200);
    expect(own.body.properties).toEqual([]);
    expect(own.body.total.visibility.trend).toBe('none');
    expect(own.body.whatChanged.changes).toEqual([]);

    for (const query of ['from=2026-04-21&to=2026-04-20', 'from=2025-01-01&to=2026-04-20', 'from=2026-02-30']) {
      const bad = await t.as(t.member).get(`/api/overview?${query}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_PARAM');
    }
  });

  it('defaults to the 30 UTC days ending today', async () => {
    const t = await seededTeam();
    const res = await t.as(t.member).get('/api/overview');
    expect(res.body).toMatchObject({ from: '2026-03-22', to: '2026-04-20', previousTo: '2026-03-21' });
    // 03-30, 04-10 and 04-15 are all in the 30 days: 17 of 30 answers mention the brand.
    expect(res.body.properties.find((p: { id: string }) => p.id === t.shop).figures.visibility.current).toBe(56.7);
  });
});
