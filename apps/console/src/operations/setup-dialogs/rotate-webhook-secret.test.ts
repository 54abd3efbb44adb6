import { randomUUID } from 'node:crypto';
import { deriveWebhookSecret } from '@vt/credentials';
import { testEnv } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from '../../testing/index.ts';

// POST /api/properties/{id}/webhook/rotate: owners and admins roll one property's lead webhook
// secret; the dialog shows the new secret, when it was rotated and until when the old one verifies.
// (That both verify through the real gateway: ingest-gateway's webhook-secret-rotation.test.ts.)

const h = createConsoleHarness();
afterAll(() => h.close());

describe('rotating the webhook secret from the console', () => {
  it('shows the new secret and the old one’s overlap; members cannot rotate; a retry with its Idempotency-Key rotates once', async () => {
    const owner = await h.signUp('owner');
    const member = await h.signUp('member');
    const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
    const as = h.as(owner.token, teamId);
    const id = (await as.post('/api/properties', { name: 'Rot', domain: 'rot.example', plan: 'growth' })).body.property
      .id as string;
    const before = (await as.get(`/api/properties/${id}/webhook`)).body;
    expect(before.signingSecret).toBe(deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, id));
    expect(before.secretRotatedAt).toBeNull();
    expect(before.previousSecret).toBeNull();

    expect((await h.as(member.token, teamId).post(`/api/properties/${id}/webhook/rotate`, {})).status).toBe(403);
    const key = randomUUID();
    const rotated = await as
      .post(`/api/properties/${id}/webhook/rotate`, { overlapHours: 2 })
      .set('Idempotency-Key', key);
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.signingSecret).not.toBe(before.signingSecret);
    const until = Date.parse(rotated.body.previousSecret.verifiesUntil);
    expect(until - Date.parse(rotated.body.secretRotatedAt)).toBe(2 * 3_600_000);
    const replay = await as
      .post(`/api/properties/${id}/webhook/rotate`, { overlapHours: 2 })
      .set('Idempotency-Key', key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const after = (await as.get(`/api/properties/${id}/webhook`)).body;
    expect(after.signingSecret).toBe(rotated.body.signingSecret);
    expect(after.previousSecret).toEqual(rotated.body.previousSecret);

    const bad = await as.post(`/api/properties/${id}/webhook/rotate`, { overlapHours: 500 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_BODY');
  });
});
