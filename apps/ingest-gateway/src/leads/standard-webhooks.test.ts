import { randomUUID } from 'node:crypto';
import { deriveLegacyWebhookSecret, deriveWebhookSecret, signWebhookPayload } from '@vt/credentials';
import { recentDeliveries } from '@vt/delivery-log';
import { testEnv } from '@vt/test-support';
import type { Express } from 'express';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../testing/gateway-harness.ts';

// The lead webhook for a sender that uses a Standard Webhooks library (webhook-id,
// webhook-timestamp, webhook-signature: v1,<base64>), signed here with the standardwebhooks npm
// library itself; the secret shown before Standard Webhooks support; and the overlap of a
// deployment key rotation. The x-webhook-* contract itself is in lead-webhook.route.test.ts.

const KEY = testEnv.WEBHOOK_SIGNING_KEY;
const NEW_KEY = `${KEY}-next-one`;
const HOUR = 3_600_000;
const h = await createGatewayHarness();
// Rotated to NEW_KEY, with KEY still verifying for an hour, and the same after the hour is up.
const overlapping = await createGatewayHarness({
  leads: { signingKey: NEW_KEY, previousSigningKey: { key: KEY, until: new Date(Date.now() + HOUR) } },
});
const overlapOver = await createGatewayHarness({
  leads: { signingKey: NEW_KEY, previousSigningKey: { key: KEY, until: new Date(Date.now() - 1000) } },
});
afterAll(async () => {
  await Promise.all([h.close(), overlapping.close(), overlapOver.close()]);
});

const ADA = { contact: 'Ada Lovelace', email: 'ada@example.com', referrer: 'https://chatgpt.com/' };

interface StandardDelivery {
  id?: string | null;
  /** Unix seconds; null leaves the header out. */
  timestamp?: number | null;
  /** The whole webhook-signature header; by default the library's signature of what is sent. */
  signature?: string | null;
  secret?: string;
  app?: Express;
}

/** A delivery as the standardwebhooks library makes it: its signature over the exact bytes sent. */
function deliverStandard(propertyId: string, lead: object, d: StandardDelivery = {}) {
  const body = JSON.stringify(lead);
  const id = d.id === undefined ? `msg_${randomUUID()}` : d.id;
  const seconds = d.timestamp === undefined ? Math.floor(Date.now() / 1000) : d.timestamp;
  const secret = d.secret ?? deriveWebhookSecret(KEY, propertyId);
  const signature =
    d.signature === undefined ? new Webhook(secret).sign(id ?? '', new Date((seconds ?? 0) * 1000), body) : d.signature;
  const req = request(d.app ?? h.app)
    .post(`/api/webhooks/leads/${propertyId}`)
    .set('Content-Type', 'application/json');
  if (id !== null) req.set('webhook-id', id);
  if (seconds !== null) req.set('webhook-timestamp', String(seconds));
  if (signature !== null) req.set('webhook-signature', signature);
  return req.send(body);
}

/** A delivery with the spec's x-webhook-* headers, keyed by the secret's text. */
function deliverSpec(
  propertyId: string,
  lead: object,
  secret: string,
  app: Express = h.app,
  id: string = randomUUID(),
) {
  const body = JSON.stringify(lead);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return request(app)
    .post(`/api/webhooks/leads/${propertyId}`)
    .set('Content-Type', 'application/json')
    .set('x-webhook-id', id)
    .set('x-webhook-timestamp', timestamp)
    .set('x-webhook-signature', signWebhookPayload(secret, id, timestamp, body))
    .send(body);
}

function expectRejection(res: request.Response, status: number, reason: string, errorMentions?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.reason).toBe(reason);
  if (errorMentions) expect(res.body.error).toContain(errorMentions);
}

describe('Standard Webhooks senders', () => {
  it('[LEAD-4] a lead signed by the standardwebhooks library with its own headers is accepted and queued', async () => {
    const { property } = await h.createProperty();
    const id = `msg_${randomUUID()}`;
    const res = await deliverStandard(property.id, ADA, { id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ matched: true, platform: 'chatgpt', warnings: [] });
    const jobs = (await h.leadJobs()).filter((job) => job.propertyId === property.id);
    expect(jobs).toEqual([expect.objectContaining({ eventId: id, leadId: res.body.leadId, platform: 'chatgpt' })]);
    await h.flushDeliveryLog();
    const [row] = await recentDeliveries(h.db, property.id, 'webhook');
    expect(row).toMatchObject({ statusCode: 200, eventId: id });
  });

  it('[LEAD-4] one valid v1 signature among several (a sender rotating its own secret) is enough', async () => {
    const { property } = await h.createProperty();
    const { property: other } = await h.createProperty();
    const id = `msg_${randomUUID()}`;
    const at = Math.floor(Date.now() / 1000);
    const body = JSON.stringify(ADA);
    const wrong = new Webhook(deriveWebhookSecret(KEY, other.id)).sign(id, new Date(at * 1000), body);
    const right = new Webhook(deriveWebhookSecret(KEY, property.id)).sign(id, new Date(at * 1000), body);
    expect(
      (await deliverStandard(property.id, ADA, { id, timestamp: at, signature: `${wrong} ${right}` })).status,
    ).toBe(200);
  });

  it('[LEAD-8] a repeat of a webhook-id is a duplicate, whichever header family names the id', async () => {
    const { property } = await h.createProperty();
    const id = `msg_${randomUUID()}`;
    const first = await deliverStandard(property.id, ADA, { id });
    expect(first.status).toBe(200);
    const again = await deliverStandard(property.id, ADA, { id });
    expect(again.body).toMatchObject({ leadId: first.body.leadId, warnings: ['duplicate_event'] });
    const asSpec = await deliverSpec(property.id, ADA, deriveWebhookSecret(KEY, property.id), h.app, id);
    expect(asSpec.body).toMatchObject({ leadId: first.body.leadId, warnings: ['duplicate_event'] });
    expect((await h.leadJobs()).filter((job) => job.propertyId === property.id)).toHaveLength(1);
  });

  it('[LEAD-2] [LEAD-3] [LEAD-4] the same checks and reason codes, naming the Standard headers', async () => {
    const { property } = await h.createProperty();
    expectRejection(
      await deliverStandard(property.id, ADA, { id: 'x'.repeat(129) }),
      400,
      'missing_event_id',
      'webhook-id is 129 characters',
    );
    expectRejection(
      await deliverStandard(property.id, ADA, { timestamp: null }),
      400,
      'missing_timestamp',
      'No webhook-timestamp header',
    );
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expectRejection(
      await deliverStandard(property.id, ADA, { timestamp: tenMinutesAgo }),
      400,
      'stale_timestamp',
      'webhook-timestamp',
    );
    expectRejection(
      await deliverStandard(property.id, ADA, { signature: null }),
      401,
      'missing_signature',
      'No webhook-signature header',
    );
  });

  it('[LEAD-4] a changed body, another secret, a hex signature or an unknown version is invalid_signature', async () => {
    const { property } = await h.createProperty();
    const { property: other } = await h.createProperty();
    const id = `msg_${randomUUID()}`;
    const at = Math.floor(Date.now() / 1000);
    const secret = deriveWebhookSecret(KEY, property.id);
    const signedOther = new Webhook(secret).sign(id, new Date(at * 1000), JSON.stringify({ contact: 'Eve' }));
    const digest = new Webhook(secret).sign(id, new Date(at * 1000), JSON.stringify(ADA)).slice('v1,'.length);
    for (const signature of [
      signedOther,
      new Webhook(deriveWebhookSecret(KEY, other.id)).sign(id, new Date(at * 1000), JSON.stringify(ADA)),
      signWebhookPayload(secret, id, String(at), JSON.stringify(ADA)),
      `v1a,${digest}`,
      digest,
    ]) {
      const res = await deliverStandard(property.id, ADA, { id, timestamp: at, signature });
      expectRejection(res, 401, 'invalid_signature');
      expect(res.body.hint).toContain('Standard Webhooks');
    }
    expect((await h.leadJobs()).filter((job) => job.propertyId === property.id)).toEqual([]);
  });

  it('[LEAD-15] the delivery log keeps a Standard delivery’s id and body only once the signature passed', async () => {
    const { property } = await h.createProperty();
    const ids = [`msg_${randomUUID()}`, `msg_${randomUUID()}`, `msg_${randomUUID()}`];
    await deliverStandard(property.id, ADA, { id: ids[0], signature: null });
    await deliverStandard(property.id, ADA, {
      id: ids[1],
      signature: 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    });
    const at = Math.floor(Date.now() / 1000);
    const notJson = 'not json';
    const signed = new Webhook(deriveWebhookSecret(KEY, property.id)).sign(
      ids[2] as string,
      new Date(at * 1000),
      notJson,
    );
    await request(h.app)
      .post(`/api/webhooks/leads/${property.id}`)
      .set('Content-Type', 'application/json')
      .set('webhook-id', ids[2] as string)
      .set('webhook-timestamp', String(at))
      .set('webhook-signature', signed)
      .send(notJson);
    await h.flushDeliveryLog();
    const rows = (await recentDeliveries(h.db, property.id, 'webhook')).reverse();
    // Refused before the signature verified: counted rows of their reasons, without the unproven id.
    expect(rows.map((row) => [row.statusCode, row.reason, row.eventId, row.authenticated])).toEqual([
      [401, 'missing_signature', null, false],
      [401, 'invalid_signature', null, false],
      [400, 'invalid_json', ids[2], true],
    ]);
    expect(rows.map((row) => row.requestBody)).toEqual([null, null, notJson]);
    for (const row of rows) expect(row.fix).toEqual(expect.stringMatching(/\S/));
  });

  it('a delivery naming its id in x-webhook-id is read with the x-webhook headers only', async () => {
    const { property } = await h.createProperty();
    const id = randomUUID();
    const res = await request(h.app)
      .post(`/api/webhooks/leads/${property.id}`)
      .set('Content-Type', 'application/json')
      .set('x-webhook-id', id)
      .set('webhook-timestamp', String(Math.floor(Date.now() / 1000)))
      .send(JSON.stringify(ADA));
    expectRejection(res, 400, 'missing_timestamp', 'No x-webhook-timestamp header');
  });
});

describe('secrets shown before, and a deployment key rotation', () => {
  it('[LEAD-17] the secret shown before Standard Webhooks support still verifies, with the x-webhook headers', async () => {
    const { property } = await h.createProperty();
    const legacy = deriveLegacyWebhookSecret(KEY, property.id);
    expect(legacy).not.toBe(deriveWebhookSecret(KEY, property.id));
    expect((await deliverSpec(property.id, ADA, legacy)).status).toBe(200);
    // It is still a secret of this property only, under this deployment key only.
    const { property: other } = await h.createProperty();
    expectRejection(await deliverSpec(other.id, ADA, legacy), 401, 'invalid_signature');
    expectRejection(await deliverSpec(property.id, ADA, legacy, overlapOver.app), 401, 'invalid_signature');
  });

  it('[LEAD-17] during the overlap both keys’ secrets verify, in both header families; after it only the new', async () => {
    const { property } = await h.createProperty();
    const oldSecret = deriveWebhookSecret(KEY, property.id);
    const newSecret = deriveWebhookSecret(NEW_KEY, property.id);
    for (const secret of [oldSecret, newSecret, deriveLegacyWebhookSecret(KEY, property.id)]) {
      expect((await deliverSpec(property.id, ADA, secret, overlapping.app)).status).toBe(200);
    }
    for (const secret of [oldSecret, newSecret]) {
      expect((await deliverStandard(property.id, ADA, { secret, app: overlapping.app })).status).toBe(200);
    }
    expect((await deliverSpec(property.id, ADA, newSecret, overlapOver.app)).status).toBe(200);
    expect((await deliverStandard(property.id, ADA, { secret: newSecret, app: overlapOver.app })).status).toBe(200);
    expectRejection(await deliverSpec(property.id, ADA, oldSecret, overlapOver.app), 401, 'invalid_signature');
    expectRejection(
      await deliverStandard(property.id, ADA, { secret: oldSecret, app: overlapOver.app }),
      401,
      'invalid_signature',
    );
  });
});
