import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// Properties and what /v1 serves about them that people set (brand terms, competitors, prompts):
// owners and admins change them, members read them, and nothing of another team is ever found.

const h = createConsoleHarness();
afterAll(() => h.close());

const NOBODY = '00000000-0000-4000-8000-000000000000';

async function teamWithProperty() {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', {
    name: 'Shop',
    domain: 'https://www.Shop.Example/pricing',
    plan: 'growth',
  });
  return { teamId, owner, member, as, created, propertyId: created.body.property?.id as string };
}

describe('properties', () => {
  it('creates a property with a normalised domain, brand terms from its name, and lists it', async () => {
    const t = await teamWithProperty();
    expect(t.created.status).toBe(201);
    expect(t.created.body.property).toMatchObject({
      name: 'Shop',
      domain: 'shop.example',
      plan: 'growth',
      subscriptionStatus: 'active',
      brandTerms: ['Shop'],
      competitors: [],
      prompts: [],
    });
    const free = await t.as(t.owner).post('/api/properties', { name: 'Free one', domain: 'free.example' });
    expect(free.body.property.plan).toBe('free');
    const list = await t.as(t.member).get('/api/properties');
    expect(list.body.properties.map((p: { name: string }) => p.name)).toEqual(['Free one', 'Shop']);
    const bad = await t.as(t.owner).post('/api/properties', { name: '', domain: 'not a domain', plan: 'platinum' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['domain', 'name', 'plan']);
  });

  it('renames, changes the plan and the brand terms, then deletes with everything collected', async () => {
    const t = await teamWithProperty();
    const patched = await t.as(t.owner).patch(`/api/properties/${t.propertyId}`, {
      name: 'Shop Store',
      plan: 'scale',
      brandTerms: ['Shop', 'Shop Store', 'Shop'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.property).toMatchObject({
      name: 'Shop Store',
      plan: 'scale',
      brandTerms: ['Shop', 'Shop Store'],
    });
    await t.as(t.owner).post(`/api/properties/${t.propertyId}/prompts`, { text: 'best shop?' });
    expect((await t.as(t.owner).delete(`/api/properties/${t.propertyId}`)).status).toBe(204);
    expect((await t.as(t.owner).get(`/api/properties/${t.propertyId}`)).status).toBe(404);
    expect(await h.db.property.count({ where: { id: t.propertyId } })).toBe(0);
    expect(await h.db.prompt.count({ where: { propertyId: t.propertyId } })).toBe(0);
  });

  it('tracks competitors and prompts: add, refuse duplicates, pause, delete', async () => {
    const t = await teamWithProperty();
    const base = `/api/properties/${t.propertyId}`;
    const globex = await t.as(t.owner).post(`${base}/competitors`, { name: 'Globex', domain: 'www.globex.example' });
    expect(globex.status).toBe(201);
    expect(globex.body.competitor).toMatchObject({ name: 'Globex', domain: 'globex.example', terms: ['Globex'] });
    expect((await t.as(t.owner).post(`${base}/competitors`, { name: 'Globex' })).body.error.code).toBe(
      'ALREADY_EXISTS',
    );

    const prompt = await t.as(t.owner).post(`${base}/prompts`, { text: 'best shop for tea?', tags: ['tea'] });
    expect(prompt.status).toBe(201);
    expect((await t.as(t.owner).post(`${base}/prompts`, { text: 'best shop for tea?' })).status).toBe(409);
    const paused = await t.as(t.owner).patch(`${base}/prompts/${prompt.body.prompt.id}`, { active: false });
    expect(paused.body.prompt).toMatchObject({ active: false, tags: ['tea'] });

    const detail = await t.as(t.member).get(base);
    expect(detail.body.property.competitors).toHaveLength(1);
    expect(detail.body.property.prompts).toEqual([
      expect.objectContaining({ text: 'best shop for tea?', active: false }),
    ]);

    expect((await t.as(t.owner).delete(`${base}/competitors/${globex.body.competitor.id}`)).status).toBe(204);
    expect((await t.as(t.owner).delete(`${base}/prompts/${prompt.body.prompt.id}`)).status).toBe(204);
    expect((await t.as(t.owner).delete(`${base}/prompts/${prompt.body.prompt.id}`)).status).toBe(404);
    expect((await t.as(t.owner).delete(`${base}/competitors/${NOBODY}`)).status).toBe(404);
  });

  it('lets members read everything and change nothing (403 on every write)', async () => {
    const t = await teamWithProperty();
    const base = `/api/properties/${t.propertyId}`;
    for (const path of [
      base,
      `${base}/crawl`,
      `${base}/crawl/log`,
      `${base}/webhook`,
      `${base}/webhook/log`,
      `${base}/activity`,
    ]) {
      expect((await t.as(t.member).get(path)).status, path).toBe(200);
    }
    const writes = [
      t.as(t.member).post('/api/properties', { name: 'X', domain: 'x.example' }),
      t.as(t.member).patch(base, { name: 'Mine now' }),
      t.as(t.member).delete(base),
      t.as(t.member).post(`${base}/competitors`, { name: 'Y' }),
      t.as(t.member).post(`${base}/prompts`, { text: 'z' }),
      t.as(t.member).post(`${base}/crawl/rotate`),
      t.as(t.member).post(`${base}/crawl/disconnect`),
      t.as(t.member).post(`${base}/crawl/reconnect`),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const stored = await h.db.property.findUniqueOrThrow({ where: { id: t.propertyId } });
    expect(stored).toMatchObject({ name: 'Shop', crawlTokenVersion: 1, crawlIngestionEnabled: true });
    expect(await h.db.property.count({ where: { teamId: t.teamId } })).toBe(1);
  });

  it('answers a property of another team exactly like a made-up id, for reads and writes', async () => {
    const theirs = await teamWithProperty();
    const mine = await teamWithProperty();
    for (const suffix of ['', '/crawl', '/crawl/log', '/webhook', '/webhook/log', '/activity']) {
      const foreign = await mine.as(mine.owner).get(`/api/properties/${theirs.propertyId}${suffix}`);
      const madeUp = await mine.as(mine.owner).get(`/api/properties/${NOBODY}${suffix}`);
      expect(foreign.status, suffix).toBe(404);
      expect(foreign.body, suffix).toEqual(madeUp.body);
    }
    const writes = await Promise.all([
      mine.as(mine.owner).patch(`/api/properties/${theirs.propertyId}`, { name: 'Taken' }),
      mine.as(mine.owner).delete(`/api/properties/${theirs.propertyId}`),
      mine.as(mine.owner).post(`/api/properties/${theirs.propertyId}/crawl/rotate`),
      mine.as(mine.owner).post(`/api/properties/${theirs.propertyId}/competitors`, { name: 'Z' }),
    ]);
    for (const res of writes) expect(res.status).toBe(404);
    expect(await h.db.property.findUniqueOrThrow({ where: { id: theirs.propertyId } })).toMatchObject({
      name: 'Shop',
      crawlTokenVersion: 1,
    });
  });
});
