import { hashApiKey } from '@vt/credentials';
import { createReadApiHarness } from '@vt/read-api/testing';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// The activity view over a day range, and read API keys: shown once, hashed, scoped to the
// team's properties, listed without the key, revoked, and checked end to end against the real
// read API.

const TODAY = new Date('2026-04-20T15:00:00Z');
const h = createConsoleHarness({ now: TODAY });
// The read API trusts a looked-up key for 1 ms here (5 s in production), so a revocation shows at once.
const readApi = createReadApiHarness({ cacheTtlMs: 1 });
afterAll(async () => {
  await h.close();
  await readApi.close();
});

const day = (text: string) => new Date(`${text}T00:00:00Z`);

async function teamWithProperty(plan = 'growth') {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const id = (await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan })).body.property
    .id as string;
  return { owner, member, as, id, teamId };
}

describe('activity', () => {
  it('sums crawler hits, referrals and leads inside the inclusive range only', async () => {
    const t = await teamWithProperty();
    const propertyId = t.id;
    const crawl = (
      d: string,
      crawler: string,
      verification: 'verified' | 'unverified' | 'unverifiable',
      hits: number,
    ) => ({
      propertyId,
      day: day(d),
      crawler,
      operator: crawler === 'GPTBot' ? 'openai' : 'anthropic',
      verification,
      hits,
    });
    await h.db.crawlerDailyCount.createMany({
      data: [
        crawl('2026-04-01', 'GPTBot', 'verified', 5),
        crawl('2026-04-01', 'GPTBot', 'unverified', 2),
        crawl('2026-04-02', 'ClaudeBot', 'unverifiable', 4),
        crawl('2026-03-31', 'GPTBot', 'verified', 100), // before the range
      ],
    });
    const seen = new Date('2026-04-01T10:00:00Z');
    await h.db.crawledPage.createMany({
      data: [
        { propertyId, path: '/pricing', crawler: 'GPTBot', hits: 7, firstSeenAt: seen, lastSeenAt: seen },
        { propertyId, path: '/pricing', crawler: 'ClaudeBot', hits: 2, firstSeenAt: seen, lastSeenAt: seen },
        { propertyId, path: '/', crawler: 'GPTBot', hits: 3, firstSeenAt: seen, lastSeenAt: seen },
      ],
    });
    await h.db.aiReferralDailyCount.createMany({
      data: [
        { propertyId, day: day('2026-04-01'), platform: 'chatgpt', landingPath: '/pricing', visits: 3 },
        { propertyId, day: day('2026-04-02'), platform: 'chatgpt', landingPath: '/', visits: 1 },
        { propertyId, day: day('2026-04-02'), platform: 'perplexity', landingPath: '/pricing', visits: 2 },
        { propertyId, day: day('2026-04-03'), platform: 'perplexity', landingPath: '/', visits: 9 }, // after
      ],
    });
    const lead = (n: number, platform: string | null) => ({
      propertyId,
      eventId: `evt-${n}`,
      contact: `lead${n}@example.test`,
      matched: platform !== null,
      platform,
      receivedAt: new Date(`2026-04-0${n}T12:00:00Z`),
      day: day(`2026-04-0${n}`),
    });
    await h.db.lead.createMany({ data: [lead(1, 'chatgpt'), lead(2, null), lead(3, 'claude')] });
    await h.db.aiLeadDailyCount.createMany({
      data: [
        { propertyId, day: day('2026-04-01'), platform: 'chatgpt', leads: 1 },
        { propertyId, day: day('2026-04-03'), platform: 'claude', leads: 1 },
      ],
    });

    const res = await t.as(t.member).get(`/api/properties/${propertyId}/activity?from=2026-04-01&to=2026-04-02`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ propertyId, from: '2026-04-01', to: '2026-04-02' });
    expect(res.body.crawlerDaily).toEqual([
      { date: '2026-04-01', hits: 7, verified: 5, unverified: 2, unverifiable: 0 },
      { date: '2026-04-02', hits: 4, verified: 0, unverified: 0, unverifiable: 4 },
    ]);
    expect(res.body.crawlers).toEqual([
      { crawler: 'GPTBot', operator: 'openai', hits: 7, verified: 5 },
      { crawler: 'ClaudeBot', operator: 'anthropic', hits: 4, verified: 0 },
    ]);
    expect(res.body.topPages.map((p: { path: string; hits: number }) => [p.path, p.hits])).toEqual([
      ['/pricing', 9],
      ['/', 3],
    ]);
    expect(res.body.aiReferrals).toEqual([
      { platform: 'chatgpt', visits: 4 },
      { platform: 'perplexity', visits: 2 },
    ]);
    expect(res.body.aiReferralsDaily).toEqual([
      { date: '2026-04-01', platform: 'chatgpt', visits: 3 },
      { date: '2026-04-02', platform: 'chatgpt', visits: 1 },
      { date: '2026-04-02', platform: 'perplexity', visits: 2 },
    ]);
    expect(res.body.topLandingPaths).toEqual([
      { path: '/pricing', visits: 5 },
      { path: '/', visits: 1 },
    ]);
    // The feed is every lead, newest first, matched or not; the daily counts keep to the range.
    expect(res.body.recentLeads.map((l: { contact: string; matched: boolean }) => [l.contact, l.matched])).toEqual([
      ['lead3@example.test', true],
      ['lead2@example.test', false],
      ['lead1@example.test', true],
    ]);
    expect(res.body.aiLeadsDaily).toEqual([{ date: '2026-04-01', platform: 'chatgpt', leads: 1 }]);
  });

  it('defaults to the 30 UTC days ending today, and refuses a reversed, too long or malformed range', async () => {
    const t = await teamWithProperty();
    const base = `/api/properties/${t.id}/activity`;
    expect((await t.as(t.member).get(base)).body).toMatchObject({ from: '2026-03-22', to: '2026-04-20' });
    expect((await t.as(t.member).get(`${base}?to=2026-01-30`)).body).toMatchObject({
      from: '2026-01-01',
      to: '2026-01-30',
    });
    for (const query of [
      'from=2026-04-10&to=2026-04-01',
      'from=2025-01-01&to=2026-04-01',
      'from=2026-02-30',
      'to=yesterday',
    ]) {
      const res = await t.as(t.member).get(`${base}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('INVALID_PARAM');
    }
  });
});

describe('read API keys', () => {
  it('shows the key once: in the create answer only, stored as its SHA-256, never in the list', async () => {
    const t = await teamWithProperty();
    const created = await t.as(t.owner).post('/api/keys', { name: 'CI', access: 'write' });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^vt_live_/);
    expect(created.body.key).toMatchObject({
      name: 'CI',
      access: 'write',
      allProperties: true,
      propertyIds: [],
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(secret.startsWith(created.body.key.prefix)).toBe(true);
    const stored = await h.db.apiKey.findUniqueOrThrow({ where: { id: created.body.key.id } });
    expect(stored.keyHash).toBe(hashApiKey(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
    for (const person of [t.owner, t.member]) {
      const list = await t.as(person).get('/api/keys');
      expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([created.body.key.id]);
      expect(list.text).not.toContain(secret.slice(created.body.key.prefix.length));
    }
  });

  it('scopes a key to the team’s own properties; another team’s property is refused with the field named', async () => {
    const t = await teamWithProperty();
    const other = await teamWithProperty();
    const scoped = await t.as(t.owner).post('/api/keys', { name: 'Scoped', propertyIds: [t.id] });
    expect(scoped.body.key).toMatchObject({ allProperties: false, propertyIds: [t.id] });
    const foreign = await t.as(t.owner).post('/api/keys', { name: 'Foreign', propertyIds: [t.id, other.id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details).toEqual([{ path: 'propertyIds.1', message: 'not a property of this team' }]);
    expect(await h.db.apiKey.count({ where: { teamId: t.teamId } })).toBe(1);
  });

  it('lets members list keys but not create or revoke them', async () => {
    const t = await teamWithProperty();
    const key = (await t.as(t.owner).post('/api/keys', { name: 'K' })).body.key;
    expect((await t.as(t.member).post('/api/keys', { name: 'Mine' })).status).toBe(403);
    expect((await t.as(t.member).delete(`/api/keys/${key.id}`)).status).toBe(403);
    expect((await h.db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeNull();
  });

  it('creates a key that reads /v1, and revokes it so the read API refuses it; another team’s key is not found', async () => {
    const t = await teamWithProperty('growth');
    const { key, secret } = (await t.as(t.owner).post('/api/keys', { name: 'E2E' })).body;
    const read = () => request(readApi.app).get('/v1/properties').set('Authorization', `Bearer ${secret}`);
    const before = await read();
    expect(before.status).toBe(200);
    expect(before.body.data.map((p: { id: string }) => p.id)).toEqual([t.id]);

    const other = await teamWithProperty();
    expect((await other.as(other.owner).delete(`/api/keys/${key.id}`)).status).toBe(404);
    expect((await read()).status).toBe(200);

    const revoked = await t.as(t.owner).delete(`/api/keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.revokedAt).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = await read();
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_KEY');
    const again = await t.as(t.owner).delete(`/api/keys/${key.id}`);
    expect(again.body.key.revokedAt).toBe(revoked.body.key.revokedAt);
    // The read API noted the key's use; the console's list shows it.
    const listed = (await t.as(t.owner).get('/api/keys')).body.keys[0];
    expect(listed.lastUsedAt).toEqual(expect.any(String));
  });
});
