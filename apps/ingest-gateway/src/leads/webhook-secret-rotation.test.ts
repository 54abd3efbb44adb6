import { createHmac, randomUUID } from 'node:crypto';
import { deriveWebhookSecret } from '@vt/credentials';
import { rotateWebhookSecret, webhookCredentials } from '@vt/properties';
import { testEnv } from '@vt/test-support';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../testing/gateway-harness.ts';

// Issue 31, item 6, through the real gateway: one property's secret rotated (as the console and
// `ops webhook rotate-secret` do where WEBHOOK_SECRET_ROTATION=property) verifies with both secrets
// during the overlap, refuses the old one after it, and leaves every other property's secret alone.
// A property never rotated keeps the secret derived from its id (LEAD-17's default). The gateway has
// no rotation setting: it honours what a property's row holds, so a deployment that switches back
// to `deployment` breaks no sender who already moved.

const KEY = testEnv.WEBHOOK_SIGNING_KEY;
const settings = { publicIngestUrl: 'https://ingest.example.test', webhookSigningKey: KEY };
const h = await createGatewayHarness();
afterAll(() => h.close());

/** Signed as the spec has senders sign, not with the code under test. */
function deliver(propertyId: string, secret: string) {
  const body = JSON.stringify({ contact: 'Ada Lovelace' });
  const id = randomUUID();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('hex');
  return request(h.app)
    .post(`/api/webhooks/leads/${propertyId}`)
    .set('Content-Type', 'application/json')
    .set('x-webhook-id', id)
    .set('x-webhook-timestamp', timestamp)
    .set('x-webhook-signature', signature)
    .send(body);
}

const secretOf = (property: Parameters<typeof webhookCredentials>[1]) =>
  webhookCredentials(settings, property).signingSecret as string;

describe('rotating one property’s webhook secret', () => {
  it('during the overlap both the old and the new secret verify; another property is untouched', async () => {
    const { property } = await h.createProperty();
    const { property: other } = await h.createProperty();
    const original = deriveWebhookSecret(KEY, property.id);
    expect(secretOf(property)).toBe(original);
    expect((await deliver(property.id, original)).status).toBe(200);

    const rotated = await rotateWebhookSecret(h.db, settings, property, { overlapHours: 24 });
    const fresh = secretOf(rotated);
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(fresh).not.toBe(original);
    expect((await deliver(property.id, fresh)).status).toBe(200);
    expect((await deliver(property.id, original)).status).toBe(200);
    // The new secret is this property's alone, and the other property's own secret still works.
    expect((await deliver(other.id, fresh)).body.reason).toBe('invalid_signature');
    expect((await deliver(other.id, deriveWebhookSecret(KEY, other.id))).status).toBe(200);
  });

  it('after the overlap the old secret is refused with 401 invalid_signature; the new one verifies', async () => {
    const { property } = await h.createProperty();
    const original = deriveWebhookSecret(KEY, property.id);
    // Rotated 25 hours ago with a 24-hour overlap: the overlap ended an hour ago.
    const rotated = await rotateWebhookSecret(h.db, settings, property, {
      overlapHours: 24,
      now: new Date(Date.now() - 25 * 3_600_000),
    });
    const refused = await deliver(property.id, original);
    expect(refused.status).toBe(401);
    expect(refused.body.reason).toBe('invalid_signature');
    expect((await deliver(property.id, secretOf(rotated))).status).toBe(200);
  });

  it('a rotation with no overlap refuses the old secret at once; a second rotation ends the first one’s secret', async () => {
    const { property } = await h.createProperty();
    const first = await rotateWebhookSecret(h.db, settings, property, { overlapHours: 0 });
    expect((await deliver(property.id, deriveWebhookSecret(KEY, property.id))).status).toBe(401);
    const second = await rotateWebhookSecret(h.db, settings, first, { overlapHours: 24 });
    const third = await rotateWebhookSecret(h.db, settings, second, { overlapHours: 24 });
    // Two secrets at most: the current one and the one just before it.
    expect((await deliver(property.id, secretOf(third))).status).toBe(200);
    expect((await deliver(property.id, secretOf(second))).status).toBe(200);
    expect((await deliver(property.id, secretOf(first))).status).toBe(401);
  });
});
