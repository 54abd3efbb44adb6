import { generateApiKey } from '@vt/credentials';
import { testDb, uniqueSlug } from '@vt/test-support';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKeyAuthenticator, LAST_USED_WRITE_INTERVAL_MS } from './api-key-auth.ts';
import { createReadApiHarness } from './testing/index.ts';

// A key's last_used_at, which the console's key list shows: written when the key reads, at most
// once per interval per replica, and not again by another replica within the interval.

const db = testDb();
const harness = createReadApiHarness();
afterAll(() => harness.close());

async function newKey() {
  const team = await db.team.create({ data: { name: 'Last used', slug: uniqueSlug('last-used') } });
  const issued = generateApiKey();
  const key = await db.apiKey.create({
    data: { teamId: team.id, name: 'k', keyHash: issued.hash, prefix: issued.prefix },
  });
  return { id: key.id, key: issued.key };
}

const lastUsedAt = async (id: string) => (await db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt;

async function waitForLastUsed(id: string, after: Date | null): Promise<Date> {
  for (let i = 0; i < 100; i++) {
    const at = await lastUsedAt(id);
    if (at && (!after || at > after)) return at;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('last_used_at was not written');
}

/** Long enough for a fire-and-forget UPDATE to have landed had it been sent. */
const settle = () => new Promise((r) => setTimeout(r, 250));

describe('last_used_at of read API keys', () => {
  it('is written when a key reads /v1', async () => {
    const { id, key } = await newKey();
    expect(await lastUsedAt(id)).toBeNull();
    const before = new Date(Date.now() - 1000);
    const res = await request(harness.app).get('/v1/properties').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect((await waitForLastUsed(id, null)).getTime()).toBeGreaterThan(before.getTime());
  });

  it('is written at most once per interval by one replica, and again after it', async () => {
    const { id, key } = await newKey();
    let clock = Date.now();
    const auth = createApiKeyAuthenticator(db, { cacheTtlMs: 60_000, now: () => clock });
    expect((await auth.authenticate(`Bearer ${key}`)).ok).toBe(true);
    await waitForLastUsed(id, null);

    // Pretend the first write was long ago: only the replica's own throttle can now hold a write back.
    const old = new Date('2000-01-01T00:00:00Z');
    await db.apiKey.update({ where: { id }, data: { lastUsedAt: old } });
    clock += LAST_USED_WRITE_INTERVAL_MS / 2;
    await auth.authenticate(`Bearer ${key}`);
    await settle();
    expect(await lastUsedAt(id)).toEqual(old);

    clock += LAST_USED_WRITE_INTERVAL_MS;
    await auth.authenticate(`Bearer ${key}`);
    expect((await waitForLastUsed(id, old)).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('is not written again by a second replica within the interval', async () => {
    const { id, key } = await newKey();
    const first = createApiKeyAuthenticator(db, { cacheTtlMs: 60_000 });
    await first.authenticate(`Bearer ${key}`);
    const written = await waitForLastUsed(id, null);

    const second = createApiKeyAuthenticator(db, { cacheTtlMs: 60_000 });
    expect((await second.authenticate(`Bearer ${key}`)).ok).toBe(true);
    await settle();
    expect(await lastUsedAt(id)).toEqual(written);
  });
});
