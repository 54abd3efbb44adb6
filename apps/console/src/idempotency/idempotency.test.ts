import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from '../testing/index.ts';

// Issue 31, item 5: a console POST under an Idempotency-Key takes effect once. A retry within 24
// hours answers the first answer with `Idempotent-Replayed: true`; the same key on another body is
// 422; concurrent retries create one; a refusal is not kept; an API key's secret is never kept, so
// its retry is 409 SECRET_NOT_REPLAYED. Real Postgres, the real console app.

// Sessions outlive the 24 hours a key is kept, so the expiry test signs nobody out.
const h = createConsoleHarness({ sessionTtlMs: 3 * 24 * 3_600_000 });
afterAll(() => h.close());

async function team() {
  const owner = await h.signUp('owner');
  const { teamId, slug } = await h.teamOf(owner);
  const as = h.as(owner.token, teamId);
  return { owner, teamId, slug, as };
}

const propertyBody = (name: string) => ({ name, domain: `${name.toLowerCase()}.example`, plan: 'growth' });

describe('Idempotency-Key on console writes', () => {
  it('a retried POST /api/properties answers the first answer, replayed, and creates one property', async () => {
    const t = await team();
    const key = randomUUID();
    const first = await t.as.post('/api/properties', propertyBody('Once')).set('Idempotency-Key', key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await t.as.post('/api/properties', propertyBody('Once')).set('Idempotency-Key', key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await h.db.property.count({ where: { teamId: t.teamId } })).toBe(1);
  });

  it('without the header every POST creates, as before', async () => {
    const t = await team();
    await t.as.post('/api/properties', propertyBody('Twice')).expect(201);
    await t.as.post('/api/properties', propertyBody('Twice')).expect(201);
    expect(await h.db.property.count({ where: { teamId: t.teamId } })).toBe(2);
  });

  it('the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED and creates nothing more', async () => {
    const t = await team();
    const key = randomUUID();
    await t.as.post('/api/properties', propertyBody('First')).set('Idempotency-Key', key).expect(201);
    const other = await t.as.post('/api/properties', propertyBody('Second')).set('Idempotency-Key', key);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Another path under the same key is another request too.
    const elsewhere = await t.as
      .post('/api/teams', { name: 'Other', slug: `other-${randomUUID().slice(0, 8)}` })
      .set('Idempotency-Key', key);
    expect(elsewhere.status).toBe(201); // teams are created outside the current team: another scope
    const names = (await h.db.property.findMany({ where: { teamId: t.teamId } })).map((p) => p.name);
    expect(names).toEqual(['First']);
  });

  it('concurrent retries of POST /api/teams create one team; the others replay it or answer 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const person = await h.signUp('racer');
    const slug = `race-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.as(person.token).post('/api/teams', { name: 'Race', slug }).set('Idempotency-Key', key),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((a) => a.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    for (const a of created) expect(a.body).toEqual(created[0]!.body);
    expect(await h.db.team.count({ where: { slug } })).toBe(1);
    // Once the first has answered, a retry replays it.
    const later = await h.as(person.token).post('/api/teams', { name: 'Race', slug }).set('Idempotency-Key', key);
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBe('true');
  });

  // People join a team only through an invitation they accept (issue 33; POST /api/team/members
  // answers 405): the invitation is the member-adding POST the key covers.
  it('covers invitations: a retried POST invites once', async () => {
    const t = await team();
    const inviteKey = randomUUID();
    const email = `invited-${randomUUID().slice(0, 8)}@example.test`;
    const invite = () => t.as.post('/api/team/invitations', { email }).set('Idempotency-Key', inviteKey);
    const first = await invite();
    expect(first.status).toBe(201);
    expect((await invite()).body).toEqual(first.body);
    expect(await h.db.teamInvitation.count({ where: { teamId: t.teamId, email } })).toBe(1);
  });

  it('a retried POST /api/keys creates one key and never shows or keeps its secret again: 409 SECRET_NOT_REPLAYED naming the key', async () => {
    const t = await team();
    const key = randomUUID();
    const first = await t.as.post('/api/keys', { name: 'CI', access: 'read' }).set('Idempotency-Key', key);
    expect(first.status).toBe(201);
    const secret: string = first.body.secret;
    const retry = await t.as.post('/api/keys', { name: 'CI', access: 'read' }).set('Idempotency-Key', key);
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('SECRET_NOT_REPLAYED');
    expect(retry.body.error.message).toContain(first.body.key.id);
    expect(JSON.stringify(retry.body)).not.toContain(secret);
    expect(await h.db.apiKey.count({ where: { teamId: t.teamId } })).toBe(1);
    const rows = await h.db.idempotentRequest.findMany({ where: { key } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]!.answer)).not.toContain(secret);
    expect(JSON.stringify(rows[0]!.answer)).not.toContain(secret.slice(-16));
  });

  it('a refusal is not kept: the retry runs again; a malformed key is 400 IDEMPOTENCY_KEY_INVALID and nothing runs', async () => {
    const t = await team();
    const key = randomUUID();
    const taken = () => t.as.post('/api/teams', { name: 'Dup', slug: t.slug }).set('Idempotency-Key', key);
    expect((await taken()).body.error.code).toBe('SLUG_TAKEN');
    expect(await h.db.idempotentRequest.count({ where: { key } })).toBe(0);
    expect((await taken()).body.error.code).toBe('SLUG_TAKEN');

    for (const bad of ['x'.repeat(256), 'tab\there', 'naïve']) {
      const res = await t.as.post('/api/properties', propertyBody('Bad')).set('Idempotency-Key', bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
    expect(await h.db.property.count({ where: { teamId: t.teamId } })).toBe(0);
  });

  it('a key is one person’s in one team: another person’s same key and body creates their own', async () => {
    const a = await team();
    const b = await team();
    const key = randomUUID();
    await a.as.post('/api/properties', propertyBody('Shared')).set('Idempotency-Key', key).expect(201);
    const other = await b.as.post('/api/properties', propertyBody('Shared')).set('Idempotency-Key', key);
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await h.db.property.count({ where: { teamId: b.teamId } })).toBe(1);
  });

  it('after 24 hours the key is new again: the expired row is deleted and the POST creates', async () => {
    const t = await team();
    const key = randomUUID();
    const start = new Date();
    h.setNow(start);
    try {
      await t.as.post('/api/properties', propertyBody('Daily')).set('Idempotency-Key', key).expect(201);
      h.setNow(new Date(start.getTime() + 24 * 3_600_000 - 1_000));
      const within = await t.as.post('/api/properties', propertyBody('Daily')).set('Idempotency-Key', key);
      expect(within.headers['idempotent-replayed']).toBe('true');
      h.setNow(new Date(start.getTime() + 24 * 3_600_000 + 1_000));
      const after = await t.as.post('/api/properties', propertyBody('Daily')).set('Idempotency-Key', key);
      expect(after.status).toBe(201);
      expect(after.headers['idempotent-replayed']).toBeUndefined();
      expect(await h.db.property.count({ where: { teamId: t.teamId } })).toBe(2);
      expect(await h.db.idempotentRequest.count({ where: { key } })).toBe(1);
    } finally {
      h.setNow(undefined as unknown as Date);
    }
  });
});
