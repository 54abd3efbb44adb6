import { randomUUID } from 'node:crypto';
import { deriveWebhookSecret } from '@vt/credentials';
import { testEnv } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness } from '../../testing/index.ts';

// POST /api/properties/{id}/webhook/rotate, in a deployment that opted in
// (WEBHOOK_SECRET_ROTATION=property): owners and admins roll one property's lead webhook secret; the
// dialog shows the new secret, when it was rotated and until when the old one verifies. (That both
// verify through the real gateway: ingest-gateway's webhook-secret-rotation.test.ts. Under the
// default, the path is 404: setup-dialogs.test.ts's LEAD-17 test.)

const h = createConsoleHarness({ connection: { webhookSecretRotation: 'property' } });
// The same database under the default setting: the deployment switched back.
const byDefault = createConsoleHarness({ db: h.db });
afterAll(async () => {
  await byDefault.close();
  await h.close();
});

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
    expect(before.secretRotation).toBe('property');

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

  it('switched back to deployment, a rotated property keeps its rotated secret and overlap; no further rotation', async () => {
    const owner = await h.signUp('owner');
    const { teamId } = await h.teamOf(owner);
    const id = (
      await h.as(owner.token, teamId).post('/api/properties', { name: 'Back', domain: 'back.example', plan: 'growth' })
    ).body.property.id as string;
    const rotated = (await h.as(owner.token, teamId).post(`/api/properties/${id}/webhook/rotate`, {})).body;
    expect(rotated.signingSecret).not.toBe(deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, id));

    // What the gateway verifies (the row's rotation) is what the dialog shows: the sender who moved stays moved.
    const as = byDefault.as(owner.token, teamId);
    const shown = (await as.get(`/api/properties/${id}/webhook`)).body;
    expect(shown).toMatchObject({
      signingSecret: rotated.signingSecret,
      secretRotatedAt: rotated.secretRotatedAt,
      previousSecret: rotated.previousSecret,
      secretRotation: 'deployment',
    });
    const refused = await as.post(`/api/properties/${id}/webhook/rotate`, {});
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    expect((await as.get(`/api/properties/${id}/webhook`)).body.signingSecret).toBe(rotated.signingSecret);
  });
});
