import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// A property's alert rules through the console: everyone reads every kind (off until switched
// on), owners and admins change them, members cannot; bad input (unknown kinds, thresholds out of
// range or on a kind without one, recipients outside the team, hostile bodies) gets the 400
// envelope naming the field and changes nothing.

const h = createConsoleHarness();
afterAll(() => h.close());

async function setup() {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const outsider = await h.signUp('outsider');
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  await h.teamOf(outsider);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  const id = created.body.property.id as string;
  return { owner, admin, member, outsider, as, base: `/api/properties/${id}/alert-rules` };
}

const userIdOf = async (person: SignedUp) => (await h.as(person.token).get('/api/me')).body.user.id as string;

describe('alert rules in the console', () => {
  it('lists every kind, off with its default threshold, and no messages yet', async () => {
    const t = await setup();
    const res = await t.as(t.member).get(t.base);
    expect(res.status).toBe(200);
    expect(res.body.rules.map((r: { kind: string }) => r.kind)).toEqual([
      'crawl_nothing_arriving',
      'crawl_rejecting',
      'webhook_rejecting',
      'crawler_hits_drop',
      'visibility_drop',
      'share_of_voice_drop',
      'new_competitor',
    ]);
    expect(res.body.rules[3]).toEqual({
      kind: 'crawler_hits_drop',
      enabled: false,
      threshold: 50,
      thresholdRange: { unit: 'percent', min: 10, max: 100, default: 50 },
      emailTo: 'owners_and_admins',
      emailUserIds: [],
      webhooks: true,
      state: {
        status: 'ok',
        since: null,
        pending: null,
        lastNotifiedAt: null,
        lastReminderAt: null,
        evaluatedAt: null,
        observed: null,
      },
    });
    expect(res.body.rules[0].threshold).toBeNull();
    expect(res.body).toMatchObject({ notifications: [], webhookCount: 0 });
  });

  it('an admin switches rules on, sets a threshold and chooses a member; everyone reads it back', async () => {
    const t = await setup();
    const memberId = await userIdOf(t.member);
    const res = await t.as(t.admin).patch(t.base, {
      rules: [
        { kind: 'visibility_drop', enabled: true, threshold: 15 },
        { kind: 'crawl_rejecting', enabled: true, emailTo: 'chosen', emailUserIds: [memberId], webhooks: false },
      ],
    });
    expect(res.status).toBe(200);
    const byKind = (body: { rules: { kind: string }[] }, kind: string) => body.rules.find((r) => r.kind === kind);
    expect(byKind(res.body, 'visibility_drop')).toMatchObject({ enabled: true, threshold: 15 });
    expect(byKind(res.body, 'crawl_rejecting')).toMatchObject({
      enabled: true,
      emailTo: 'chosen',
      emailUserIds: [memberId],
      webhooks: false,
    });
    const read = await t.as(t.member).get(t.base);
    expect(read.body).toEqual(res.body);
    // Fields left out stay as they were.
    const again = await t.as(t.owner).patch(t.base, { rules: [{ kind: 'visibility_drop', enabled: false }] });
    expect(byKind(again.body, 'visibility_drop')).toMatchObject({ enabled: false, threshold: 15 });
  });

  it('a member cannot change them (403), and nothing changes', async () => {
    const t = await setup();
    const res = await t.as(t.member).patch(t.base, { rules: [{ kind: 'new_competitor', enabled: true }] });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const read = await t.as(t.owner).get(t.base);
    expect(read.body.rules.every((r: { enabled: boolean }) => !r.enabled)).toBe(true);
  });

  it('bad input answers 400 naming the field, and nothing is half-written', async () => {
    const t = await setup();
    const outsiderId = await userIdOf(t.outsider);
    const cases: [unknown, string][] = [
      [{ rules: [{ kind: 'server_on_fire', enabled: true }] }, 'rules.0.kind'],
      [{ rules: [{ kind: 'crawler_hits_drop', threshold: 5 }] }, 'rules.0.threshold'],
      [{ rules: [{ kind: 'visibility_drop', threshold: 101 }] }, 'rules.0.threshold'],
      [{ rules: [{ kind: 'visibility_drop', threshold: Number.NaN }] }, 'rules.0.threshold'],
      [{ rules: [{ kind: 'crawl_rejecting', threshold: 10 }] }, 'rules.0.threshold'],
      [{ rules: [{ kind: 'crawl_rejecting' }, { kind: 'crawl_rejecting' }] }, 'rules.1.kind'],
      [{ rules: [{ kind: 'crawl_rejecting', emailUserIds: ['not-a-uuid'] }] }, 'rules.0.emailUserIds.0'],
      [{ rules: [{ kind: 'crawl_rejecting', sneaky: true }] }, 'rules.0.sneaky'],
      [{ rules: [] }, 'rules'],
      [
        {
          rules: [
            { kind: 'new_competitor', enabled: true },
            { kind: 'crawl_rejecting', enabled: true, emailTo: 'chosen', emailUserIds: [outsiderId] },
          ],
        },
        'rules.1.emailUserIds.0',
      ],
    ];
    for (const [body, path] of cases) {
      const res = await t.as(t.owner).patch(t.base, body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_BODY');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
    const many = await t.as(t.owner).patch(t.base, {
      rules: Array.from({ length: 100 }, () => ({ kind: 'crawl_rejecting' })),
    });
    expect(many.status).toBe(400);
    const huge = await t.as(t.owner).patch(t.base, {
      rules: Array.from({ length: 10_000 }, () => ({ kind: 'crawl_rejecting' })),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toEqual(expect.any(String));
    // The refused recipient took the valid change beside it down with it.
    const read = await t.as(t.owner).get(t.base);
    expect(read.body.rules.every((r: { enabled: boolean }) => !r.enabled)).toBe(true);
  });

  it('another team’s property is 404', async () => {
    const t = await setup();
    const res = await h.as(t.outsider.token).get(t.base);
    expect([403, 404]).toContain(res.status);
  });
});
