import { importAnswers } from '@vt/answers';
import { answerScheduleJob } from '@vt/queue';
import { scratchDatabase } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// Answer collection in the console: what the collector published (which platforms, the next run,
// the property's last run on each) and starting a collection now, limited per property. On a
// database of its own: the platforms' rows are global to a database. The collector itself is
// collection-status.test.ts's and the browser test's; here its rows are written as it writes them.

const TODAY = new Date('2026-05-10T12:00:00Z');
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let h: ReturnType<typeof createConsoleHarness>;

beforeAll(async () => {
  scratch = await scratchDatabase('console_collection');
  h = createConsoleHarness({ db: scratch.db, now: TODAY, sessionTtlMs: 7 * 86_400_000 });
});
afterAll(async () => {
  await h?.close();
  await scratch?.drop();
});

/** The rows the collector writes at start: `configured` platforms with a key, the rest without. */
async function collectorReports(configured: string[]) {
  await scratch.db.answerPlatformStatus.deleteMany();
  for (const platform of ['chatgpt', 'perplexity', 'claude', 'gemini', 'copilot']) {
    const on = configured.includes(platform);
    await scratch.db.answerPlatformStatus.create({
      data: {
        platform,
        configured: on,
        model: on ? `${platform}-model` : null,
        reason: on ? null : `${platform.toUpperCase()}_API_KEY is not set`,
        collectAtUtc: '06:00',
        nextRunAt: new Date('2026-05-11T06:00:00Z'),
        reportedAt: new Date('2026-05-10T06:00:01Z'),
      },
    });
  }
}

async function team(plan: 'growth' | 'free' = 'growth') {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', {
    name: 'Acme',
    domain: 'acme.example',
    plan,
    brandTerms: ['Acme'],
  });
  const id = created.body.property.id as string;
  await as(owner).post(`/api/properties/${id}/prompts`, { text: 'best crm for startups' });
  return { owner, admin, member, as, id };
}

const queuedFor = async (propertyId: string) =>
  (await h.scheduleQueue.getJobs(['waiting', 'delayed'])).filter((j) => j.data.propertyId === propertyId);

describe('answer collection in the console', () => {
  it('with no platform key, says so in plain words and refuses to start (503 NOT_CONFIGURED)', async () => {
    await collectorReports([]);
    const t = await team();
    const status = await t.as(t.member).get(`/api/properties/${t.id}/collection`);
    expect(status.status).toBe(200);
    expect(status.body.reported).toBe(true);
    expect(status.body.platforms.map((p: { name: string; configured: boolean }) => [p.name, p.configured])).toEqual([
      ['ChatGPT', false],
      ['Perplexity', false],
      ['Claude', false],
      ['Gemini', false],
      ['Copilot', false],
    ]);
    expect(status.body.collectNow).toMatchObject({ allowed: false, availableAt: null });
    expect(status.body.collectNow.reason).toMatch(/No AI platform key is set/);
    const start = await t.as(t.owner).post(`/api/properties/${t.id}/collection`);
    expect(start.status).toBe(503);
    expect(start.body.error.code).toBe('NOT_CONFIGURED');
    expect(await queuedFor(t.id)).toEqual([]);
  });

  it("shows the platforms that collect, the next run and the property's last run on each", async () => {
    await collectorReports(['chatgpt', 'claude']);
    const t = await team();
    await scratch.db.answerCollectionRun.create({
      data: {
        propertyId: t.id,
        platform: 'claude',
        day: new Date('2026-05-10'),
        trigger: 'daily',
        startedAt: new Date('2026-05-10T06:00:02Z'),
        finishedAt: new Date('2026-05-10T06:01:00Z'),
        questions: 3,
        stored: 2,
        failed: 1,
        lastError: 'HTTP 401',
      },
    });
    const res = await t.as(t.member).get(`/api/properties/${t.id}/collection`);
    expect(res.body).toMatchObject({
      collectAtUtc: '06:00',
      nextRunAt: '2026-05-11T06:00:00.000Z',
      collectNow: { allowed: true, reason: null, availableAt: null },
    });
    const claude = res.body.platforms.find((p: { platform: string }) => p.platform === 'claude');
    expect(claude).toMatchObject({
      name: 'Claude',
      configured: true,
      reason: null,
      lastRun: { trigger: 'daily', day: '2026-05-10', questions: 3, stored: 2, failed: 1, lastError: 'HTTP 401' },
    });
    const chatgpt = res.body.platforms.find((p: { platform: string }) => p.platform === 'chatgpt');
    expect(chatgpt).toMatchObject({ configured: true, lastRun: null });
    // Another team's property is not there to read.
    const other = await team();
    expect((await other.as(other.owner).get(`/api/properties/${t.id}/collection`)).status).toBe(404);
  });

  it('owners and admins start a collection, queued on the collector schedule for that property; members may not', async () => {
    await collectorReports(['chatgpt']);
    const t = await team();
    const denied = await t.as(t.member).post(`/api/properties/${t.id}/collection`);
    expect(denied.status).toBe(403);
    expect(await queuedFor(t.id)).toEqual([]);

    const started = await t.as(t.admin).post(`/api/properties/${t.id}/collection`);
    expect(started.status).toBe(200);
    expect(started.body.collectNow.allowed).toBe(false);
    expect(Date.parse(started.body.collectNow.availableAt)).toBeGreaterThan(TODAY.getTime());
    const jobs = await queuedFor(t.id);
    expect(jobs.map((j) => [j.name, j.data])).toEqual([
      [answerScheduleJob.name, { day: '2026-05-10', propertyId: t.id }],
    ]);
  });

  it('a second collection within the hour is 429 RATE_LIMIT_EXCEEDED with Retry-After and a plain message', async () => {
    await collectorReports(['chatgpt']);
    const t = await team();
    expect((await t.as(t.owner).post(`/api/properties/${t.id}/collection`)).status).toBe(200);
    const again = await t.as(t.admin).post(`/api/properties/${t.id}/collection`);
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(again.body.error.message).toMatch(/within the hour; the next can start in \d+ min/);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(3500);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await queuedFor(t.id)).toHaveLength(1);
    // The limit is per property: another property of the team starts at once.
    const created = await t.as(t.owner).post('/api/properties', { name: 'Beta', domain: 'b.example', plan: 'growth' });
    const beta = created.body.property.id as string;
    await t.as(t.owner).post(`/api/properties/${beta}/prompts`, { text: 'best crm' });
    expect((await t.as(t.owner).post(`/api/properties/${beta}/collection`)).status).toBe(200);
  });

  it('a Free property or one without an active prompt has nothing to collect (409 NOTHING_TO_COLLECT)', async () => {
    await collectorReports(['chatgpt']);
    const free = await team('free');
    const refused = await free.as(free.owner).post(`/api/properties/${free.id}/collection`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'NOTHING_TO_COLLECT' });
    expect(refused.body.error.message).toMatch(/Free plan/);
    const t = await team();
    const prompts = await t.as(t.owner).get(`/api/properties/${t.id}`);
    const promptId = prompts.body.property.prompts[0].id as string;
    await t.as(t.owner).patch(`/api/properties/${t.id}/prompts/${promptId}`, { active: false });
    const none = await t.as(t.owner).post(`/api/properties/${t.id}/collection`);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toMatch(/no active prompt/);
    expect(await queuedFor(t.id)).toEqual([]);
  });

  it('shows each platform’s requests today against its daily budget, from the collectors’ own counter', async () => {
    await collectorReports(['chatgpt', 'claude']);
    await scratch.db.answerPlatformStatus.update({ where: { platform: 'chatgpt' }, data: { dailyRequestBudget: 40 } });
    await scratch.db.answerPlatformUsage.createMany({
      data: [
        { platform: 'chatgpt', day: new Date('2026-05-10'), requests: 40, skippedBudget: 3 },
        { platform: 'chatgpt', day: new Date('2026-05-09'), requests: 12, skippedBudget: 0 },
        { platform: 'claude', day: new Date('2026-05-10'), requests: 5, skippedBudget: 0 },
      ],
      skipDuplicates: true,
    });
    const t = await team();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/collection`);
    const today = Object.fromEntries(
      res.body.platforms.map((p: { platform: string; today: unknown }) => [p.platform, p.today]),
    );
    expect(today.chatgpt).toEqual({ day: '2026-05-10', requests: 40, budget: 40, skippedBudget: 3 });
    expect(today.claude).toEqual({ day: '2026-05-10', requests: 5, budget: null, skippedBudget: 0 });
    expect(today.gemini).toEqual({ day: '2026-05-10', requests: 0, budget: null, skippedBudget: 0 });
  });

  it('without a report from the collector, says it has not reported', async () => {
    await scratch.db.answerPlatformStatus.deleteMany();
    const t = await team();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/collection`);
    expect(res.body).toMatchObject({ reported: false, platforms: [], nextRunAt: null, collectNow: { allowed: false } });
    expect(res.body.collectNow.reason).toMatch(/has not reported/);
  });
});

describe("the brand's rank among the brands an answer names", () => {
  it('is 1 + the competitors first named before it, beside the character position; null when not mentioned (READ-23)', async () => {
    await collectorReports(['chatgpt']);
    const t = await team();
    for (const name of ['Globex', 'Initech', 'Umbrella']) {
      await t
        .as(t.owner)
        .post(`/api/properties/${t.id}/competitors`, { name, domain: `${name.toLowerCase()}.example` });
    }
    const line = (model: string, answer: string) =>
      JSON.stringify({ propertyId: t.id, prompt: 'best crm for startups', model, date: '2026-05-09', answer });
    const imported = await importAnswers(
      scratch.db,
      [
        line('chatgpt', 'Globex is popular. Acme is excellent. Initech and Globex too.'),
        line('claude', 'Acme first, then Umbrella.'),
        line('gemini', 'Globex and Initech are common choices.'),
      ],
      { now: TODAY },
    );
    expect(imported.rejected).toEqual([]);
    const res = await t.as(t.member).get(`/api/properties/${t.id}/responses?from=2026-05-01`);
    const byModel = Object.fromEntries(
      res.body.data.map((r: { model: string; rank: number | null; brandsNamed: number; position: number | null }) => [
        r.model,
        [r.rank, r.brandsNamed, r.position],
      ]),
    );
    expect(byModel).toEqual({
      chatgpt: [2, 3, 'Globex is popular. '.length],
      claude: [1, 2, 0],
      gemini: [null, 2, null],
    });
  });
});
