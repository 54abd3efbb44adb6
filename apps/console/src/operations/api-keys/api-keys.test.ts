import { randomUUID } from 'node:crypto';
import { hashApiKey } from '@vt/credentials';
import { createReadApiHarness } from '@vt/read-api/testing';
import request from 'supertest';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// Read API keys through the console: the whole key is in the create answer only (the list never
// holds it, the database holds its SHA-256), keys are scoped to the team's own properties, members
// list but never create or revoke, revoking is idempotent, another team's key is not found; and a
// key made here reads the real read API until it is revoked.

const h = createConsoleHarness();
// The read API trusts a looked-up key for 1 ms here (5 s in production), so a revocation shows
// almost at once. Not 0: the key cache is an LRUCache, whose ttl 0 means "never expires".
const CACHE_TTL_MS = 1;
const readApi = createReadApiHarness({ cacheTtlMs: CACHE_TTL_MS });
afterAll(async () => {
  await h.close();
  await readApi.close();
});

async function team() {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const property = async (name: string, plan = 'growth') =>
    (await as(owner).post('/api/properties', { name, domain: `${name.toLowerCase()}.example`, plan })).body.property
      .id as string;
  return { teamId, owner, admin, member, as, property };
}

const keysOf = (teamId: string) => h.db.apiKey.findMany({ where: { teamId } });
const readV1 = (secret: string, path = '/v1/properties') =>
  request(readApi.app).get(path).set('Authorization', `Bearer ${secret}`);

describe('creating a key', () => {
  it('answers 201 with the whole key once; the database keeps only its SHA-256', async () => {
    const t = await team();
    const res = await t.as(t.admin).post('/api/keys', { name: 'CI', access: 'write' });
    expect(res.status).toBe(201);
    const secret: string = res.body.secret;
    expect(secret).toMatch(/^vt_live_[0-9A-Za-z]{38}$/);
    expect(res.body.key).toEqual({
      id: expect.any(String),
      name: 'CI',
      prefix: secret.slice(0, res.body.key.prefix.length),
      access: 'write',
      allProperties: true,
      propertyIds: [],
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(res.body.key.prefix.length).toBeLessThan(secret.length / 2);

    const stored = await h.db.apiKey.findUniqueOrThrow({ where: { id: res.body.key.id } });
    expect(stored).toMatchObject({ teamId: t.teamId, keyHash: hashApiKey(secret), createdById: t.admin.user.id });
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(stored.prefix.length));
  });

  it('defaults to a read key named “API key” for every property', async () => {
    const t = await team();
    const res = await t.as(t.owner).post('/api/keys', {});
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({ name: 'API key', access: 'read', allProperties: true, propertyIds: [] });
  });

  it('never shows the key again: the list, to owners, admins and members alike, holds no trace of it', async () => {
    const t = await team();
    const first = await t.as(t.owner).post('/api/keys', { name: 'First' });
    const second = await t.as(t.admin).post('/api/keys', { name: 'Second' });
    const secrets = [first.body.secret as string, second.body.secret as string];
    for (const person of [t.owner, t.admin, t.member]) {
      const list = await t.as(person).get('/api/keys');
      expect(list.status).toBe(200);
      expect(list.body.keys.map((k: { name: string }) => k.name)).toEqual(['Second', 'First']);
      for (const key of list.body.keys) expect(Object.keys(key)).not.toContain('secret');
      for (const secret of secrets) {
        expect(list.text).not.toContain(secret);
        expect(list.text).not.toContain(secret.slice(first.body.key.prefix.length));
      }
    }
  });

  it('scopes a key to chosen properties of the team', async () => {
    const t = await team();
    const shop = await t.property('Shop');
    const blog = await t.property('Blog');
    const res = await t.as(t.owner).post('/api/keys', { name: 'Scoped', propertyIds: [shop, blog, shop] });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatchObject({ allProperties: false, propertyIds: [shop, blog].sort() });
    const stored = await h.db.apiKeyProperty.findMany({ where: { apiKeyId: res.body.key.id } });
    expect(stored.map((s) => s.propertyId).sort()).toEqual([shop, blog].sort());
  });

  it('refuses a property of another team (or none) with 400 INVALID_BODY naming it, and creates no key', async () => {
    const t = await team();
    const other = await team();
    const mine = await t.property('Shop');
    const theirs = await other.property('Theirs');

    const foreign = await t.as(t.owner).post('/api/keys', { name: 'Foreign', propertyIds: [theirs] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({
      code: 'INVALID_BODY',
      details: [{ path: 'propertyIds.0', message: 'not a property of this team' }],
    });

    const mixed = await t.as(t.owner).post('/api/keys', { name: 'Mixed', propertyIds: [mine, randomUUID(), theirs] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.details.map((d: { path: string }) => d.path)).toEqual(['propertyIds.1', 'propertyIds.2']);

    const malformed = await t.as(t.owner).post('/api/keys', { propertyIds: ['not-a-uuid'] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details).toEqual([{ path: 'propertyIds.0', message: expect.any(String) }]);

    expect(await keysOf(t.teamId)).toEqual([]);
    expect(await h.db.apiKeyProperty.count({ where: { propertyId: theirs } })).toBe(0);
  });
});

describe('members', () => {
  it('list keys, but creating or revoking one answers 403 FORBIDDEN and changes nothing', async () => {
    const t = await team();
    const { key } = (await t.as(t.owner).post('/api/keys', { name: 'K' })).body;
    const list = await t.as(t.member).get('/api/keys');
    expect(list.status).toBe(200);
    expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([key.id]);

    const create = await t.as(t.member).post('/api/keys', { name: 'Mine' });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe('FORBIDDEN');
    expect(create.body).not.toHaveProperty('secret');
    const revoke = await t.as(t.member).delete(`/api/keys/${key.id}`);
    expect(revoke.status).toBe(403);
    expect(revoke.body.error.code).toBe('FORBIDDEN');

    const stored = await keysOf(t.teamId);
    expect(stored.map((k) => [k.id, k.revokedAt])).toEqual([[key.id, null]]);
  });
});

describe('revoking a key', () => {
  it('answers 200 with revokedAt; revoking again keeps the first time; the list shows it revoked, live keys first', async () => {
    const t = await team();
    const old = (await t.as(t.owner).post('/api/keys', { name: 'Old' })).body.key;
    const live = (await t.as(t.owner).post('/api/keys', { name: 'Live' })).body.key;
    const revoked = await t.as(t.admin).delete(`/api/keys/${old.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ id: old.id, name: 'Old', revokedAt: expect.any(String) });
    expect(revoked.body).not.toHaveProperty('secret');
    const stored = await h.db.apiKey.findUniqueOrThrow({ where: { id: old.id } });
    expect(stored.revokedAt?.toISOString()).toBe(revoked.body.key.revokedAt);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await t.as(t.owner).delete(`/api/keys/${old.id}`);
    expect(again.status).toBe(200);
    expect(again.body.key.revokedAt).toBe(revoked.body.key.revokedAt);

    const list = (await t.as(t.member).get('/api/keys')).body.keys;
    expect(list.map((k: { id: string; revokedAt: string | null }) => [k.id, k.revokedAt])).toEqual([
      [live.id, null],
      [old.id, revoked.body.key.revokedAt],
    ]);
  });

  it('answers 404 for another team’s key exactly as for a made-up id, and leaves it live', async () => {
    const t = await team();
    const other = await team();
    const theirs = (await other.as(other.owner).post('/api/keys', { name: 'Theirs' })).body.key;
    const foreign = await t.as(t.owner).delete(`/api/keys/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await t.as(t.owner).delete(`/api/keys/${randomUUID()}`)).body).toEqual(foreign.body);
    expect((await t.as(t.owner).delete('/api/keys/not-a-uuid')).body).toEqual(foreign.body);
    expect((await h.db.apiKey.findUniqueOrThrow({ where: { id: theirs.id } })).revokedAt).toBeNull();
    expect((await t.as(t.owner).get('/api/keys')).body.keys).toEqual([]);
  });
});

describe('a key made in the console, against the real read API', () => {
  it('reads /v1 (paid properties only) until it is revoked, then answers 401 INVALID_KEY', async () => {
    const t = await team();
    const growth = await t.property('Growing', 'growth');
    await t.property('Gratis', 'free');
    const { key, secret } = (await t.as(t.owner).post('/api/keys', { name: 'E2E' })).body;

    const before = await readV1(secret);
    expect(before.status).toBe(200);
    expect(before.body.data.map((p: { id: string }) => p.id)).toEqual([growth]);

    expect((await t.as(t.owner).delete(`/api/keys/${key.id}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, CACHE_TTL_MS + 5));
    const after = await readV1(secret);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_KEY');
  });

  it('reads only the properties a scoped key names', async () => {
    const t = await team();
    const shop = await t.property('Shop');
    await t.property('Blog');
    const { secret } = (await t.as(t.owner).post('/api/keys', { name: 'Scoped', propertyIds: [shop] })).body;
    const res = await readV1(secret);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([shop]);
  });

  it('shows in the list when the read API last used the key', async () => {
    const t = await team();
    await t.property('Shop');
    const { key, secret } = (await t.as(t.owner).post('/api/keys', { name: 'Used' })).body;
    expect(key.lastUsedAt).toBeNull();
    expect((await readV1(secret)).status).toBe(200);
    await vi.waitFor(
      async () => {
        const [listed] = (await t.as(t.member).get('/api/keys')).body.keys;
        expect(listed.lastUsedAt).toEqual(expect.any(String));
      },
      { timeout: 5000, interval: 50 },
    );
  });
});
