import { type CaughtMessage, type MailCatcher, startMailCatcher } from '@vt/mail-catcher';
import { testEnv } from '@vt/test-support';
import { reportDedupeKey, reportRows, sendDueReports } from '@vt/weekly-report';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverNow } from '../../testing/deliver-now.ts';
import { CONSOLE_ORIGIN, createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// The weekly report end to end: subscribed in the console, queued by the notifier's function at
// Monday 08:00 team time, sent over SMTP to a real server (the catcher), read there; numbers
// checked against GET /api/overview over the same week, the preview against what was sent, and the
// unsubscribe link followed without a session.

// Wednesday 25 November 2026, 10:00 UTC. In Paris the report of this week covers 2026-W47
// (Mon 16 – Sun 22 November), due Monday 23 November 08:00 CET = 07:00 UTC.
const NOW = new Date('2026-11-25T10:00:00Z');
const DUE = new Date('2026-11-23T07:00:00Z');
const h = createConsoleHarness({ now: NOW, sessionTtlMs: 30 * 86_400_000 });
const bare = createConsoleHarness({ now: NOW, reportUnsubscribeKey: null });
let catcher: MailCatcher;
const links = { consoleUrl: CONSOLE_ORIGIN, unsubscribeKey: testEnv.REPORT_UNSUBSCRIBE_KEY };
const woken: string[] = [];
const run = (now: Date) => sendDueReports({ db: h.db, links, wake: async (id) => void woken.push(id) }, now);

beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await h.close();
  await bare.close();
  await catcher.close();
});

const day = (text: string) => new Date(`${text}T00:00:00Z`);

async function seededTeam(timeZone = 'Europe/Paris') {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  expect((await as(owner).patch('/api/team', { settings: { timeZone } })).status).toBe(200);
  const created = await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  const shop: string = created.body.property.id;
  await as(owner).post(`/api/properties/${shop}/competitors`, { name: 'Globex' });
  const globex = await h.db.competitor.findFirstOrThrow({ where: { propertyId: shop } });
  const prompts = [];
  for (let i = 0; i < 10; i++)
    prompts.push(await h.db.prompt.create({ data: { propertyId: shop, text: `prompt ${i}` } }));
  // This week (W47): 10 answers, 8 naming the brand, Globex named in 2; the week before: 4 of 10.
  for (const [d, mentioned] of [
    ['2026-11-18', 8],
    ['2026-11-11', 4],
  ] as const) {
    for (let i = 0; i < 10; i++) {
      const response = await h.db.response.create({
        data: {
          propertyId: shop,
          promptId: (prompts[i] as { id: string }).id,
          model: 'chatgpt',
          day: day(d),
          mentioned: i < mentioned,
          matchedTerm: i < mentioned ? 'Shop' : null,
          position: i < mentioned ? 10 : null,
          sentiment: i < mentioned ? 0.5 : null,
          excerpt: 'an answer',
          text: 'an answer',
        },
      });
      if (i >= 8) {
        await h.db.responseCompetitorMention.create({
          data: {
            responseId: response.id,
            competitorId: globex.id,
            position: 5,
            propertyId: shop,
            day: day(d),
            model: 'chatgpt',
          },
        });
      }
    }
  }
  const crawl = (d: string, hits: number) =>
    h.db.crawlerDailyCount.create({
      data: { propertyId: shop, day: day(d), crawler: 'GPTBot', operator: 'openai', verification: 'verified', hits },
    });
  await crawl('2026-11-18', 140);
  await crawl('2026-11-10', 100);
  // Outside both weeks: counted by neither.
  await crawl('2026-11-23', 999);
  await h.db.aiReferralDailyCount.create({
    data: { propertyId: shop, day: day('2026-11-20'), platform: 'chatgpt', landingPath: '/', visits: 30 },
  });
  await h.db.aiLeadDailyCount.create({
    data: { propertyId: shop, day: day('2026-11-22'), platform: 'perplexity', leads: 3 },
  });
  return { teamId, owner, member, as, shop };
}

type Team = Awaited<ReturnType<typeof seededTeam>>;

/** Subscribes the person through the console, as if on `at` (before the week's due time by default). */
async function subscribe(t: Team, person: SignedUp, at = new Date('2026-11-20T12:00:00Z')) {
  const res = await t.as(person).put(`/api/properties/${t.shop}/weekly-report`);
  expect(res.status).toBe(200);
  expect(res.body.subscribed).toBe(true);
  await h.db.reportSubscription.updateMany({
    where: { userId: person.user.id, propertyId: t.shop },
    data: { createdAt: at },
  });
}

const reportsTo = (t: Team, person: SignedUp) =>
  h.db.outgoingEmail.findMany({
    where: { teamId: t.teamId, kind: 'weekly-report', recipient: person.email },
    orderBy: { createdAt: 'asc' },
  });

async function sendAndCatch(t: Team, person: SignedUp): Promise<CaughtMessage> {
  const [email] = await reportsTo(t, person);
  if (!email) throw new Error('no report queued');
  expect(await deliverNow(h.db, catcher.url, email.id)).toEqual({ applied: true });
  return catcher.waitForMessage((m) => m.envelope.to.includes(person.email) && m.subject === email.subject);
}

/** The token of the caught report's List-Unsubscribe address. */
const tokenOf = (message: CaughtMessage) => {
  const header = JSON.stringify(message.headers);
  const match = /weekly-report\/unsubscribe\?token=([^>"\\]+)/.exec(header);
  if (!match?.[1]) throw new Error(`no List-Unsubscribe in ${header}`);
  return decodeURIComponent(match[1]);
};

describe('the weekly report', () => {
  it('reaches a subscriber once, over SMTP, with the overview’s numbers for the week in HTML and text', async () => {
    const t = await seededTeam();
    await subscribe(t, t.member);
    const before = woken.length;
    const first = await run(NOW);
    expect(first.queued).toBeGreaterThanOrEqual(1);
    const [email, ...more] = await reportsTo(t, t.member);
    expect(more).toEqual([]);
    expect(email?.dedupeKey).toBe(reportDedupeKey(t.member.user.id, t.shop, '2026-W47'));
    expect(woken.slice(before)).toContain(email?.id);
    // Nobody else: the owner did not subscribe.
    expect(await reportsTo(t, t.owner)).toEqual([]);

    const caught = await sendAndCatch(t, t.member);
    expect(caught.subject).toBe('Shop: your AI visibility, week 47 (Mon 16 Nov – Sun 22 Nov 2026)');
    expect(caught.text).toContain('Shop (shop.example): week 47');
    expect(caught.html).toContain('<table role="presentation"');
    expect(caught.html).not.toMatch(/<script|<img|<link|<style|src=/i);
    expect(JSON.stringify(caught.headers)).toContain('List-Unsubscribe=One-Click');

    // The overview over the same week, as the console computes it: every row of the report reads it.
    const overview = await t.as(t.member).get('/api/overview?from=2026-11-16&to=2026-11-22');
    expect(overview.status).toBe(200);
    const figures = overview.body.properties.find((p: { id: string }) => p.id === t.shop).figures;
    for (const row of reportRows(figures)) {
      expect(caught.text).toContain(`${row.label}: ${row.value}`);
      expect(caught.html).toContain(row.value);
    }
    // And by hand: 140 hits against 100 (+40%), 30 referrals and 3 leads against none, 8 of 10
    // answers (80%) against 4 of 10, share of voice 8 / (8 + 2) = 80% against 4 / 6 = 66.7%.
    expect(caught.text).toContain('AI crawler hits: 140 (+40% on 100 the week before)');
    expect(caught.text).toContain('AI referrals: 30 (none the week before)');
    expect(caught.text).toContain('AI-attributed leads: 3 (none the week before)');
    expect(caught.text).toContain('Visibility: 80% (+40 points on 40% the week before)');
    expect(caught.text).toContain('Share of voice: 80% (+13.3 points on 66.7% the week before)');
    for (const change of overview.body.whatChanged.changes as { text: string }[]) {
      expect(caught.text).toContain(`- ${change.text}`);
    }
    expect(caught.text).toContain(`${CONSOLE_ORIGIN}/t/${t.teamId}/p/${t.shop}/activity`);
  });

  it('is queued once however often the evaluation runs, and a replica that missed the note adds nothing', async () => {
    const t = await seededTeam();
    await subscribe(t, t.member);
    await run(NOW);
    await run(new Date(NOW.getTime() + 60_000));
    // A second notifier that read the subscription before the first noted the week.
    await h.db.reportSubscription.updateMany({ where: { userId: t.member.user.id }, data: { lastReportWeek: null } });
    const replayed = await run(NOW);
    expect(replayed.alreadyQueued).toBeGreaterThanOrEqual(1);
    expect(await reportsTo(t, t.member)).toHaveLength(1);
  });

  it('is not due before Monday 08:00 team time, and a new subscriber waits for the next Monday', async () => {
    const t = await seededTeam('America/New_York');
    // Subscribed on Friday 20 November; W47's report is due Monday 23rd at 08:00 EST, 13:00 UTC.
    await subscribe(t, t.member);
    await run(new Date('2026-11-23T12:59:59Z'));
    expect(await reportsTo(t, t.member)).toEqual([]);
    await run(new Date('2026-11-23T13:00:00Z'));
    expect((await reportsTo(t, t.member)).map((e) => e.dedupeKey)).toEqual([
      reportDedupeKey(t.member.user.id, t.shop, '2026-W47'),
    ]);
    // The owner subscribes on Wednesday, after this week's due time: nothing until next Monday.
    await subscribe(t, t.owner, new Date('2026-11-25T09:00:00Z'));
    await run(NOW);
    expect(await reportsTo(t, t.owner)).toEqual([]);
    await run(new Date('2026-11-30T13:00:00Z'));
    expect((await reportsTo(t, t.owner)).map((e) => e.dedupeKey)).toEqual([
      reportDedupeKey(t.owner.user.id, t.shop, '2026-W48'),
    ]);
  });

  it('unsubscribes through its link once, with no session, as a mail client’s one-click POST', async () => {
    const t = await seededTeam();
    await subscribe(t, t.member);
    await run(NOW);
    const token = tokenOf(await sendAndCatch(t, t.member));
    const link = `/api/weekly-report/unsubscribe?token=${encodeURIComponent(token)}`;
    // RFC 8058: a form body, no cookie, no Authorization.
    const first = await request(h.app).post(link).type('form').send('List-Unsubscribe=One-Click');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ unsubscribed: true, propertyName: 'Shop' });
    expect((await t.as(t.member).get(`/api/properties/${t.shop}/weekly-report`)).body).toEqual({
      subscribed: false,
      since: null,
    });
    const again = await request(h.app).post(link);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ unsubscribed: false, propertyName: null });
    // Next Monday: nothing for them.
    await run(new Date('2026-11-30T07:00:00Z'));
    expect(await reportsTo(t, t.member)).toHaveLength(1);
  });

  it('stops for a member removed from the team: nothing sent, the subscription gone', async () => {
    const t = await seededTeam();
    await subscribe(t, t.member);
    expect((await t.as(t.owner).delete(`/api/team/members/${t.member.user.id}`)).status).toBe(204);
    const result = await run(NOW);
    expect(result.removed).toBeGreaterThanOrEqual(1);
    expect(await reportsTo(t, t.member)).toEqual([]);
    expect(await h.db.reportSubscription.count({ where: { userId: t.member.user.id } })).toBe(0);
  });

  it('previews exactly what is sent', async () => {
    const t = await seededTeam();
    await subscribe(t, t.member);
    await run(NOW);
    const [email] = await reportsTo(t, t.member);
    const preview = await t.as(t.member).get(`/api/properties/${t.shop}/weekly-report/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      week: '2026-W47',
      from: '2026-11-16',
      to: '2026-11-22',
      dueAt: DUE.toISOString(),
      timeZone: 'Europe/Paris',
      subscribed: true,
      subject: email?.subject,
    });
    expect(preview.body.html).toBe(email?.htmlBody);
    expect(preview.body.text).toBe(email?.textBody);
    // Someone not subscribed sees the same numbers, without an unsubscribe link of anyone's.
    const owners = await t.as(t.owner).get(`/api/properties/${t.shop}/weekly-report/preview`);
    expect(owners.body.subscribed).toBe(false);
    expect(owners.body.text).not.toContain('unsubscribe?token=');
    expect(owners.body.text.split('\n').slice(0, 9)).toEqual(preview.body.text.split('\n').slice(0, 9));
  });

  it('is each person’s own choice: any member subscribes, and only themself', async () => {
    const t = await seededTeam();
    const path = `/api/properties/${t.shop}/weekly-report`;
    expect((await t.as(t.member).put(path)).body.subscribed).toBe(true);
    // Again: unchanged, the same subscription.
    const since = (await t.as(t.member).get(path)).body.since;
    expect((await t.as(t.member).put(path)).body.since).toBe(since);
    expect((await t.as(t.owner).get(path)).body).toEqual({ subscribed: false, since: null });
    expect((await t.as(t.member).delete(path)).body).toEqual({ subscribed: false, since: null });
    expect((await t.as(t.member).delete(path)).status).toBe(200);
  });
});

describe('bad input', () => {
  it('refuses tokens it did not sign, too long or missing, with the error envelope', async () => {
    const t = await seededTeam();
    await subscribe(t, t.member);
    const subscription = await h.db.reportSubscription.findFirstOrThrow({ where: { userId: t.member.user.id } });
    const forged = `${subscription.id}.${'A'.repeat(43)}`;
    for (const query of [
      `token=${forged}`,
      `token=${'x'.repeat(5000)}`,
      'token=',
      '',
      'token=a&token=b',
      'token=%00',
    ]) {
      const res = await request(h.app).post(`/api/weekly-report/unsubscribe?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAM');
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await h.db.reportSubscription.count({ where: { id: subscription.id } })).toBe(1);
    // A deployment without the key: nothing to check a token against.
    const res = await request(bare.app).post(`/api/weekly-report/unsubscribe?token=${forged}`);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('NOT_CONFIGURED');
  });

  it('keeps other teams’ properties out of reach: 404 for subscribing and previewing', async () => {
    const t = await seededTeam();
    const stranger = await h.signUp('stranger');
    const { teamId } = await h.teamOf(stranger);
    const as = h.as(stranger.token, teamId);
    for (const res of [
      await as.put(`/api/properties/${t.shop}/weekly-report`),
      await as.get(`/api/properties/${t.shop}/weekly-report/preview`),
      await as.get('/api/properties/not-a-uuid/weekly-report/preview'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect(await h.db.reportSubscription.count({ where: { userId: stranger.user.id } })).toBe(0);
    // Signed out: 401.
    expect((await request(h.app).put(`/api/properties/${t.shop}/weekly-report`)).status).toBe(401);
  });
});
