import { hashSessionToken } from '@vt/credentials';
import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { endSession, findSession, startSession } from './sessions.ts';

// Sessions as stored: only the token's hash, an expiry that ends them, expired ones pruned as the
// same person signs in again, and signing out ending one session only.

const db = testDb();
const HOUR = 3_600_000;

async function newUser() {
  return db.user.create({ data: { email: `${uniqueSlug('session')}@example.test`, name: 'S' } });
}

describe('sessions', () => {
  it('stores the token only as its SHA-256 and finds the session by the token until it expires', async () => {
    const user = await newUser();
    const t0 = new Date('2026-05-01T10:00:00Z');
    const { token, expiresAt } = await startSession(db, user.id, { ttlMs: HOUR, now: t0 });
    expect(token).toMatch(/^vts_[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toEqual(new Date(t0.getTime() + HOUR));
    const [row] = await db.session.findMany({ where: { userId: user.id } });
    expect(row?.tokenHash).toBe(hashSessionToken(token));
    expect(JSON.stringify(row)).not.toContain(token);

    expect((await findSession(db, token, new Date(t0.getTime() + HOUR - 1)))?.user.id).toBe(user.id);
    expect(await findSession(db, token, new Date(t0.getTime() + HOUR))).toBeNull();
  });

  it('finds nothing for a malformed, unknown or ended token; ending one session leaves the others', async () => {
    const user = await newUser();
    const a = await startSession(db, user.id, { ttlMs: HOUR });
    const b = await startSession(db, user.id, { ttlMs: HOUR });
    expect(await findSession(db, 'not-a-token')).toBeNull();
    expect(await findSession(db, `vts_${'A'.repeat(43)}`)).toBeNull();
    const session = await findSession(db, a.token);
    await endSession(db, session!.id);
    expect(await findSession(db, a.token)).toBeNull();
    expect(await findSession(db, b.token)).not.toBeNull();
  });

  it('prunes the person’s expired sessions when a new one starts', async () => {
    const user = await newUser();
    const old = new Date(Date.now() - 10 * HOUR);
    await startSession(db, user.id, { ttlMs: HOUR, now: old });
    await startSession(db, user.id, { ttlMs: HOUR, now: old });
    expect(await db.session.count({ where: { userId: user.id } })).toBe(2);
    await startSession(db, user.id, { ttlMs: HOUR });
    expect(await db.session.count({ where: { userId: user.id } })).toBe(1);
  });
});
