import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// Properties through the console API: create (domain normalised, brand terms and plan defaulted),
// list, read with competitors and prompts, rename, plan and brand-term changes, delete; competitors
// and prompts. Members read all of it and change none of it (403); a property of another team is
// answered exactly like a made-up or malformed id (404), for reads and writes alike.

const h = createConsoleHarness();
afterAll(() => h.close());

/** A team with an owner, an admin and a member, and one growth property created by the owner. */
async function teamWithProperty() {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  if (created.status !== 201) throw new Error(`property create failed: ${created.status}`);
  const id = created.body.property.id as string;
  return { teamId, owner, admin, member, as, id, base: `/api/properties/${id}` };
}

/** Everything stored about a property that a refused write must leave as it was. */
async function storedState(propertyId: string) {
  const [property, competitors, prompts] = await Promise.all([
    h.db.property.findUnique({ where: { id: propertyId } }),
    h.db.competitor.findMany({ where: { propertyId }, orderBy: { name: 'asc' } }),
    h.db.prompt.findMany({ where: { propertyId }, orderBy: { text: 'asc' } }),
  ]);
  return { property, competitors, prompts };
}

describe('creating and listing properties', () => {
  it('creates a property with its domain normalised to the bare host, brand terms from its name and the free plan', async () => {
    const t = await teamWithProperty();
    const res = await t.as(t.admin).post('/api/properties', { name: 'Shop Two', domain: 'https://www.Shop.example/x' });
    expect(res.status).toBe(201);
    expect(res.body.property).toEqual({
      id: expect.any(String),
      name: 'Shop Two',
      domain: 'shop.example',
      plan: 'free',
      subscriptionStatus: 'active',
      brandTerms: ['Shop Two'],
      countDualUseAsAi: false,
      country: null,
      language: null,
      createdAt: expect.any(String),
      competitors: [],
      prompts: [],
    });
    const stored = await h.db.property.findUniqueOrThrow({ where: { id: res.body.property.id } });
    expect(stored).toMatchObject({ teamId: t.teamId, domain: 'shop.example', plan: 'free', brandTerms: ['Shop Two'] });
  });

  it('keeps the brand terms and plan given on create, without duplicates', async () => {
    const t = await teamWithProperty();
    const res = await t.as(t.owner).post('/api/properties', {
      name: 'Acme',
      domain: 'acme.example',
      plan: 'scale',
      brandTerms: ['Acme', 'Acme Inc', 'Acme'],
    });
    expect(res.status).toBe(201);
    expect(res.body.property).toMatchObject({ plan: 'scale', brandTerms: ['Acme', 'Acme Inc'] });
  });

  it('lists the team’s properties of every plan by name, and only the team’s', async () => {
    const t = await teamWithProperty();
    const other = await teamWithProperty();
    await t.as(t.owner).post('/api/properties', { name: 'Atelier', domain: 'atelier.example' });
    const res = await t.as(t.member).get('/api/properties');
    expect(res.status).toBe(200);
    expect(res.body.properties.map((p: { name: string; plan: string }) => [p.name, p.plan])).toEqual([
      ['Atelier', 'free'],
      ['Shop', 'growth'],
    ]);
    expect(res.body.properties.map((p: { id: string }) => p.id)).not.toContain(other.id);
  });

  it('gets a property with its competitors and prompts', async () => {
    const t = await teamWithProperty();
    await t.as(t.owner).post(`${t.base}/competitors`, { name: 'Globex', domain: 'www.globex.example' });
    await t.as(t.owner).post(`${t.base}/prompts`, { text: 'best shop for tea?', tags: ['tea'] });
    const res = await t.as(t.member).get(t.base);
    expect(res.status).toBe(200);
    expect(res.body.property).toMatchObject({
      id: t.id,
      name: 'Shop',
      domain: 'shop.example',
      plan: 'growth',
      brandTerms: ['Shop'],
      competitors: [{ id: expect.any(String), name: 'Globex', domain: 'globex.example', terms: ['Globex'] }],
      prompts: [
        {
          id: expect.any(String),
          text: 'best shop for tea?',
          tags: ['tea'],
          active: true,
          createdAt: expect.any(String),
        },
      ],
    });
  });
});

describe('changing and deleting a property', () => {
  it('renames, changes the plan and replaces the brand terms with PATCH, leaving other fields alone', async () => {
    const t = await teamWithProperty();
    const renamed = await t.as(t.admin).patch(t.base, { name: 'Shop Store' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.property).toMatchObject({ name: 'Shop Store', plan: 'growth', brandTerms: ['Shop'] });

    const replanned = await t.as(t.owner).patch(t.base, { plan: 'starter' });
    expect(replanned.body.property).toMatchObject({ name: 'Shop Store', plan: 'starter' });

    const terms = await t.as(t.owner).patch(t.base, { brandTerms: ['Shop', 'Shop Store', 'Shop'] });
    expect(terms.body.property.brandTerms).toEqual(['Shop', 'Shop Store']);

    const stored = await h.db.property.findUniqueOrThrow({ where: { id: t.id } });
    expect(stored).toMatchObject({ name: 'Shop Store', plan: 'starter', brandTerms: ['Shop', 'Shop Store'] });
  });

  it('refuses an unknown field or a bad plan with field details, and changes nothing', async () => {
    const t = await teamWithProperty();
    const res = await t.as(t.owner).patch(t.base, { plan: 'platinum', domain: 'elsewhere.example' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BODY');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['domain', 'plan']);
    expect(await h.db.property.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      plan: 'growth',
      domain: 'shop.example',
    });
  });

  it('deletes a property with 204; afterwards it is 404 and its row, competitors and prompts are gone', async () => {
    const t = await teamWithProperty();
    await t.as(t.owner).post(`${t.base}/competitors`, { name: 'Globex' });
    await t.as(t.owner).post(`${t.base}/prompts`, { text: 'best shop?' });
    const res = await t.as(t.owner).delete(t.base);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await t.as(t.owner).get(t.base);
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('NOT_FOUND');
    expect((await t.as(t.owner).delete(t.base)).status).toBe(404);
    expect(await storedState(t.id)).toEqual({ property: null, competitors: [], prompts: [] });
    expect((await t.as(t.owner).get('/api/properties')).body.properties).toEqual([]);
  });
});

describe('competitors', () => {
  it('adds a competitor (201), refuses the same name again (409 ALREADY_EXISTS), removes it (204)', async () => {
    const t = await teamWithProperty();
    const added = await t.as(t.admin).post(`${t.base}/competitors`, {
      name: 'Globex',
      domain: 'https://www.Globex.example/about',
      terms: ['Globex', 'Globex Corp'],
    });
    expect(added.status).toBe(201);
    expect(added.body.competitor).toEqual({
      id: expect.any(String),
      name: 'Globex',
      domain: 'globex.example',
      terms: ['Globex', 'Globex Corp'],
    });

    const again = await t.as(t.owner).post(`${t.base}/competitors`, { name: 'Globex' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ALREADY_EXISTS');
    expect(await h.db.competitor.count({ where: { propertyId: t.id } })).toBe(1);

    const removed = await t.as(t.owner).delete(`${t.base}/competitors/${added.body.competitor.id}`);
    expect(removed.status).toBe(204);
    expect(await h.db.competitor.count({ where: { propertyId: t.id } })).toBe(0);
    expect((await t.as(t.owner).get(t.base)).body.property.competitors).toEqual([]);
  });

  it('answers 404 for an unknown competitor id, and for one of another property, which stays', async () => {
    const t = await teamWithProperty();
    const unknown = await t.as(t.owner).delete(`${t.base}/competitors/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    const second = (await t.as(t.owner).post('/api/properties', { name: 'Other', domain: 'other.example' })).body
      .property.id as string;
    const theirs = (await t.as(t.owner).post(`/api/properties/${second}/competitors`, { name: 'Initech' })).body
      .competitor.id as string;
    const crossed = await t.as(t.owner).delete(`${t.base}/competitors/${theirs}`);
    expect(crossed.status).toBe(404);
    expect(crossed.body).toEqual(unknown.body);
    expect(await h.db.competitor.count({ where: { id: theirs } })).toBe(1);
  });
});

describe('prompts', () => {
  it('adds a prompt (201), refuses the same text again (409), pauses it and changes its tags, deletes it (204)', async () => {
    const t = await teamWithProperty();
    const added = await t.as(t.admin).post(`${t.base}/prompts`, { text: 'best shop for tea?', tags: ['tea'] });
    expect(added.status).toBe(201);
    expect(added.body.prompt).toEqual({
      id: expect.any(String),
      text: 'best shop for tea?',
      tags: ['tea'],
      active: true,
      country: null,
      language: null,
      createdAt: expect.any(String),
    });
    const promptPath = `${t.base}/prompts/${added.body.prompt.id}`;

    const again = await t.as(t.owner).post(`${t.base}/prompts`, { text: 'best shop for tea?' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ALREADY_EXISTS');
    expect(await h.db.prompt.count({ where: { propertyId: t.id } })).toBe(1);

    const paused = await t.as(t.owner).patch(promptPath, { active: false });
    expect(paused.status).toBe(200);
    expect(paused.body.prompt).toMatchObject({ active: false, tags: ['tea'] });
    const retagged = await t.as(t.owner).patch(promptPath, { tags: ['tea', 'gifts'] });
    expect(retagged.body.prompt).toMatchObject({ active: false, tags: ['tea', 'gifts'] });
    expect(await h.db.prompt.findUniqueOrThrow({ where: { id: added.body.prompt.id } })).toMatchObject({
      active: false,
      tags: ['tea', 'gifts'],
    });

    const removed = await t.as(t.owner).delete(promptPath);
    expect(removed.status).toBe(204);
    expect(await h.db.prompt.count({ where: { propertyId: t.id } })).toBe(0);
    expect((await t.as(t.owner).delete(promptPath)).status).toBe(404);
    expect((await t.as(t.owner).patch(promptPath, { active: true })).status).toBe(404);
  });
});

describe('members', () => {
  it('read the property, its list, dialogs, logs and activity', async () => {
    const t = await teamWithProperty();
    for (const path of [
      '/api/properties',
      t.base,
      `${t.base}/crawl`,
      `${t.base}/crawl/log`,
      `${t.base}/webhook`,
      `${t.base}/webhook/log`,
      `${t.base}/activity`,
    ]) {
      expect((await t.as(t.member).get(path)).status, path).toBe(200);
    }
  });

  it('get 403 FORBIDDEN for every write, and nothing changes', async () => {
    const t = await teamWithProperty();
    const competitor = (await t.as(t.owner).post(`${t.base}/competitors`, { name: 'Globex' })).body.competitor;
    const prompt = (await t.as(t.owner).post(`${t.base}/prompts`, { text: 'best shop?', tags: ['a'] })).body.prompt;
    const before = await storedState(t.id);
    const m = t.as(t.member);
    const writes: [string, () => PromiseLike<{ status: number; body: { error: { code: string } } }>][] = [
      ['create property', () => m.post('/api/properties', { name: 'Mine', domain: 'mine.example' })],
      ['rename', () => m.patch(t.base, { name: 'Mine now' })],
      ['change plan', () => m.patch(t.base, { plan: 'scale' })],
      ['brand terms', () => m.patch(t.base, { brandTerms: ['Mine'] })],
      ['delete', () => m.delete(t.base)],
      ['add competitor', () => m.post(`${t.base}/competitors`, { name: 'Initech' })],
      ['remove competitor', () => m.delete(`${t.base}/competitors/${competitor.id}`)],
      ['add prompt', () => m.post(`${t.base}/prompts`, { text: 'another?' })],
      ['pause prompt', () => m.patch(`${t.base}/prompts/${prompt.id}`, { active: false })],
      ['delete prompt', () => m.delete(`${t.base}/prompts/${prompt.id}`)],
      ['rotate', () => m.post(`${t.base}/crawl/rotate`)],
      ['disconnect', () => m.post(`${t.base}/crawl/disconnect`)],
      ['reconnect', () => m.post(`${t.base}/crawl/reconnect`)],
    ];
    for (const [what, write] of writes) {
      const res = await write();
      expect(res.status, what).toBe(403);
      expect(res.body.error.code, what).toBe('FORBIDDEN');
    }
    expect(await storedState(t.id)).toEqual(before);
    expect(before.property).toMatchObject({ name: 'Shop', crawlTokenVersion: 1, crawlIngestionEnabled: true });
    expect(await h.db.property.count({ where: { teamId: t.teamId } })).toBe(1);
  });
});

describe('a property of another team', () => {
  const reads = ['', '/crawl', '/crawl/log', '/webhook', '/webhook/log', '/activity'];

  it('answers 404 NOT_FOUND to reads exactly as a random UUID and a malformed id do', async () => {
    const theirs = await teamWithProperty();
    const mine = await teamWithProperty();
    const api = mine.as(mine.owner);
    for (const suffix of reads) {
      const foreign = await api.get(`/api/properties/${theirs.id}${suffix}`);
      const random = await api.get(`/api/properties/${randomUUID()}${suffix}`);
      const malformed = await api.get(`/api/properties/not-a-uuid${suffix}`);
      expect(foreign.status, suffix).toBe(404);
      expect(foreign.body.error.code, suffix).toBe('NOT_FOUND');
      expect(random.body, suffix).toEqual(foreign.body);
      expect(malformed.status, suffix).toBe(404);
      expect(malformed.body, suffix).toEqual(foreign.body);
    }
  });

  it('answers 404 NOT_FOUND to writes exactly as a random UUID and a malformed id do, and changes nothing', async () => {
    const theirs = await teamWithProperty();
    await theirs.as(theirs.owner).post(`${theirs.base}/competitors`, { name: 'Globex' });
    await theirs.as(theirs.owner).post(`${theirs.base}/prompts`, { text: 'best shop?' });
    const before = await storedState(theirs.id);
    const mine = await teamWithProperty();
    const api = mine.as(mine.owner);
    const writes: [string, (id: string) => PromiseLike<{ status: number; body: unknown }>][] = [
      ['rename', (id) => api.patch(`/api/properties/${id}`, { name: 'Taken' })],
      ['delete', (id) => api.delete(`/api/properties/${id}`)],
      ['add competitor', (id) => api.post(`/api/properties/${id}/competitors`, { name: 'Initech' })],
      ['add prompt', (id) => api.post(`/api/properties/${id}/prompts`, { text: 'mine?' })],
      ['rotate', (id) => api.post(`/api/properties/${id}/crawl/rotate`)],
      ['disconnect', (id) => api.post(`/api/properties/${id}/crawl/disconnect`)],
      ['reconnect', (id) => api.post(`/api/properties/${id}/crawl/reconnect`)],
    ];
    for (const [what, write] of writes) {
      const foreign = await write(theirs.id);
      const random = await write(randomUUID());
      const malformed = await write('not-a-uuid');
      expect(foreign.status, what).toBe(404);
      expect(foreign.body, what).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(random.body, what).toEqual(foreign.body);
      expect(malformed.status, what).toBe(404);
      expect(malformed.body, what).toEqual(foreign.body);
    }
    expect(await storedState(theirs.id)).toEqual(before);
    expect(await h.db.property.count({ where: { teamId: mine.teamId } })).toBe(1);
  });
});
