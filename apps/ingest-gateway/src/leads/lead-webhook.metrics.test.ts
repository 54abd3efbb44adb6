import { createHmac, randomUUID } from 'node:crypto';
import { AI_PLATFORM_IDS } from '@vt/attribution';
import { deriveWebhookSecret } from '@vt/credentials';
import { type Exposition, hasSample, parseExposition, promtool, sampleSum, testEnv } from '@vt/test-support';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { LEAD_REJECTIONS } from '../rejections.ts';
import { createGatewayHarness } from '../testing/gateway-harness.ts';

// The lead webhook's counters as GET /metrics serves them, after real deliveries through the real
// gateway app (real Redis and BullMQ queue, real Postgres): accepted by platform, duplicates,
// refused by reason. Each harness has a registry of its own, so the counts here are exact.

const h = await createGatewayHarness();
const unconfigured = await createGatewayHarness({ leads: { signingKey: undefined } });
afterAll(async () => {
  await Promise.all([h.close(), unconfigured.close()]);
});

function deliver(
  app: Express,
  propertyId: string,
  body: string,
  d: { id?: string; stale?: boolean; badSignature?: boolean } = {},
) {
  const id = d.id ?? randomUUID();
  const timestamp = String(Math.floor(Date.now() / 1000) - (d.stale ? 900 : 0));
  const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, propertyId);
  const signature = createHmac('sha256', secret)
    .update(`${id}.${timestamp}.${d.badSignature ? 'other' : body}`)
    .digest('hex');
  return request(app)
    .post(`/api/webhooks/leads/${propertyId}`)
    .set('Content-Type', 'application/json')
    .set('x-webhook-id', id)
    .set('x-webhook-timestamp', timestamp)
    .set('x-webhook-signature', signature)
    .send(body);
}

async function metricsOf(app: Express): Promise<Exposition & { text: string }> {
  const res = await request(app).get('/metrics');
  expect(res.status).toBe(200);
  return { text: res.text, ...parseExposition(res.text) };
}

const lead = (fields: object) => JSON.stringify({ contact: 'ada@example.com', ...fields });

describe('lead webhook metrics', () => {
  it('counts leads accepted by platform, duplicates apart, and refusals by reason, every series from 0', async () => {
    const { property } = await h.createProperty();
    const statuses = [
      (await deliver(h.app, property.id, lead({ referrer: 'https://chatgpt.com/' }))).status,
      (await deliver(h.app, property.id, lead({ referrer: 'https://www.perplexity.ai/search' }))).status,
      (await deliver(h.app, property.id, lead({ utmSource: 'chatgpt.com' }))).status,
      (await deliver(h.app, property.id, lead({ referrer: 'https://news.example/' }))).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200]);
    const repeated = lead({ referrer: 'https://claude.ai/' });
    const id = randomUUID();
    const first = await deliver(h.app, property.id, repeated, { id });
    const again = await deliver(h.app, property.id, repeated, { id });
    expect(again.body.warnings).toContain('duplicate_event');
    expect(again.body.leadId).toBe(first.body.leadId);

    expect((await deliver(h.app, property.id, lead({}), { badSignature: true })).status).toBe(401);
    expect((await deliver(h.app, property.id, lead({}), { badSignature: true })).status).toBe(401);
    expect((await deliver(h.app, property.id, lead({}), { stale: true })).status).toBe(400);
    expect((await deliver(h.app, property.id, '{not json')).status).toBe(400);
    expect((await deliver(h.app, property.id, lead({ email: 'not an email' }))).status).toBe(400);
    expect((await deliver(h.app, randomUUID(), lead({}))).status).toBe(404);

    const m = await metricsOf(h.app);
    const accepted = (platform: string) => sampleSum(m, 'vt_leads_accepted_total', { platform });
    expect(accepted('chatgpt')).toBe(2);
    expect(accepted('perplexity')).toBe(1);
    expect(accepted('claude')).toBe(1); // the repeat is a duplicate, not a second lead
    expect(accepted('unclassified')).toBe(1);
    expect(sampleSum(m, 'vt_leads_duplicate_total')).toBe(1);
    const refused = (reason: string) => sampleSum(m, 'vt_leads_refused_total', { reason });
    expect(refused('invalid_signature')).toBe(2);
    expect(refused('stale_timestamp')).toBe(1);
    expect(refused('invalid_json')).toBe(1);
    expect(refused('invalid_payload')).toBe(1);
    expect(refused('property_not_found')).toBe(1);
    expect(sampleSum(m, 'vt_leads_refused_total')).toBe(6);
    // Bounded labels, each present from the start: every platform and every reason of the catalogue.
    for (const platform of [...AI_PLATFORM_IDS, 'unclassified']) {
      expect(hasSample(m, 'vt_leads_accepted_total', { platform }), platform).toBe(true);
    }
    for (const reason of Object.keys(LEAD_REJECTIONS)) {
      expect(hasSample(m, 'vt_leads_refused_total', { reason }), reason).toBe(true);
    }
    const platforms = m.samples.filter((s) => s.name === 'vt_leads_accepted_total').map((s) => s.labels.platform);
    expect(platforms.sort()).toEqual([...AI_PLATFORM_IDS, 'unclassified'].sort());

    const lint = await promtool(['check', 'metrics'], m.text);
    expect(lint.output).toBe('');
    expect(lint.code).toBe(0);
  });

  it('counts the 503 of a gateway without a signing key under webhook_not_configured', async () => {
    const { property } = await unconfigured.createProperty();
    expect((await deliver(unconfigured.app, property.id, lead({}))).status).toBe(503);
    const m = await metricsOf(unconfigured.app);
    expect(sampleSum(m, 'vt_leads_refused_total', { reason: 'webhook_not_configured' })).toBe(1);
    expect(sampleSum(m, 'vt_leads_accepted_total')).toBe(0);
  });
});
