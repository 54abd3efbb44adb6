import { createHmac, randomUUID } from 'node:crypto';
import { AI_PLATFORM_IDS } from '@vt/attribution';
import { deriveWebhookSecret, signWebhookPayload } from '@vt/credentials';
import { recentDeliveries } from '@vt/delivery-log';
import { testEnv } from '@vt/test-support';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../testing/gateway-harness.ts';

// The lead webhook as a sender meets it: reason codes and their order, the signature contract,
// the payload rules, classification, deduplication and what the delivery log keeps. Size caps,
// window edges, field limits and unavailable dependencies are in lead-webhook-limits.test.ts.

const KEY = testEnv.WEBHOOK_SIGNING_KEY;
const h = await createGatewayHarness();
const rotated = await createGatewayHarness({ leads: { signingKey: `${KEY}-rotated` } });
// Its writer holds a lone row for a minute, past the test timeout: an answer that waited for its row would never come.
const slowLog = await createGatewayHarness({ deliveryLog: { maxDelayMs: 60_000 } });
afterAll(async () => {
  await Promise.all([h.close(), rotated.close(), slowLog.close()]);
});

/** The sender's side of the contract, written from the spec rather than taken from the code under test. */
function hmacHex(secret: string, id: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.`).update(body).digest('hex');
}

interface Delivery {
  /** null leaves the header out. */
  id?: string | null;
  timestamp?: string | null;
  signature?: string | null;
  secret?: string;
  /** The bytes the signature covers, when they are not the bytes sent. */
  signedBody?: string;
  app?: Express;
}

function deliver(propertyId: string, body: object | string | Buffer, d: Delivery = {}) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const id = d.id === undefined ? randomUUID() : d.id;
  const timestamp = d.timestamp === undefined ? String(Math.floor(Date.now() / 1000)) : d.timestamp;
  const secret = d.secret ?? deriveWebhookSecret(KEY, propertyId);
  const signed = d.signedBody === undefined ? bytes : Buffer.from(d.signedBody);
  const signature = d.signature === undefined ? hmacHex(secret, id ?? '', timestamp ?? '', signed) : d.signature;
  const req = request(d.app ?? h.app)
    .post(`/api/webhooks/leads/${propertyId}`)
    .set('Content-Type', 'application/json');
  if (id !== null) req.set('x-webhook-id', id);
  if (timestamp !== null) req.set('x-webhook-timestamp', timestamp);
  if (signature !== null) req.set('x-webhook-signature', signature);
  return req.serialize((b) => b).send(bytes);
}

function expectRejection(res: request.Response, status: number, reason: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const expectedKeys =
    reason === 'invalid_payload' ? ['details', 'error', 'hint', 'reason'] : ['error', 'hint', 'reason'];
  expect(Object.keys(res.body).sort()).toEqual(expectedKeys);
  expect(res.body.reason).toBe(reason);
  expect(res.body.error).toEqual(expect.stringMatching(/\S/));
  expect(res.body.hint).toEqual(expect.stringMatching(/\S/));
}

const leadJobsOf = async (propertyId: string) => (await h.leadJobs()).filter((j) => j.propertyId === propertyId);
/** The webhook's delivery log, once every row the answers so far handed to the writer is written. */
async function webhookRows(propertyId: string) {
  await h.flushDeliveryLog();
  return recentDeliveries(h.db, propertyId, 'webhook');
}
const ADA = { contact: 'Ada Lovelace', email: 'ada@example.com' };
const stale = () => String(Math.floor(Date.now() / 1000) - 600);

describe('lead webhook reason codes', () => {
  it('[LEAD-13] [LEAD-14] an unknown property id answers 404 with error and hint, no reason, whatever else is wrong', async () => {
    for (const propertyId of [randomUUID(), 'not-a-uuid']) {
      const res = await deliver(propertyId, 'not json', { id: null, timestamp: null, signature: null });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(['error', 'hint']);
      expect(res.body.hint).toEqual(expect.stringMatching(/\S/));
    }
  });

  const cases: { rule: string; reason: string; status: number; send: (propertyId: string) => request.Test }[] = [
    { rule: 'LEAD-2', reason: 'missing_event_id', status: 400, send: (p) => deliver(p, ADA, { id: null }) },
    { rule: 'LEAD-3', reason: 'missing_timestamp', status: 400, send: (p) => deliver(p, ADA, { timestamp: null }) },
    { rule: 'LEAD-3', reason: 'stale_timestamp', status: 400, send: (p) => deliver(p, ADA, { timestamp: stale() }) },
    { rule: 'LEAD-4', reason: 'missing_signature', status: 401, send: (p) => deliver(p, ADA, { signature: null }) },
    {
      rule: 'LEAD-4',
      reason: 'invalid_signature',
      status: 401,
      send: (p) => deliver(p, ADA, { signature: 'a'.repeat(64) }),
    },
    { rule: 'LEAD-5', reason: 'invalid_json', status: 400, send: (p) => deliver(p, '{"contact": "Ada"') },
    { rule: 'LEAD-5', reason: 'invalid_payload', status: 400, send: (p) => deliver(p, { email: 'ada@example.com' }) },
  ];
  it.each(cases)('[LEAD-14] [$rule] $reason answers $status with {error, hint, reason}; no lead', async (c) => {
    const { property } = await h.createProperty();
    expectRejection(await c.send(property.id), c.status, c.reason);
    expect(await leadJobsOf(property.id)).toEqual([]);
    const rows = await webhookRows(property.id);
    expect(rows.map((r) => [r.statusCode, r.reason])).toEqual([[c.status, c.reason]]);
  });

  it('[LEAD-5] [LEAD-14] an empty body is invalid_json', async () => {
    const { property } = await h.createProperty();
    expectRejection(await deliver(property.id, ''), 400, 'invalid_json');
  });
});

describe('lead webhook order of checks', () => {
  const bad = 'f'.repeat(64);
  const orders: { rule: string; expected: string; status: number; send: (propertyId: string) => request.Test }[] = [
    {
      rule: 'LEAD-2',
      expected: 'missing_event_id',
      status: 400,
      send: (p) => deliver(p, 'not json', { id: null, timestamp: null, signature: null }),
    },
    {
      rule: 'LEAD-2',
      expected: 'missing_event_id',
      status: 400,
      send: (p) => deliver(p, ADA, { id: null, signature: bad }),
    },
    {
      rule: 'LEAD-3',
      expected: 'missing_timestamp',
      status: 400,
      send: (p) => deliver(p, ADA, { timestamp: null, signature: null }),
    },
    {
      rule: 'LEAD-3',
      expected: 'stale_timestamp',
      status: 400,
      send: (p) => deliver(p, ADA, { timestamp: stale(), signature: bad }),
    },
    {
      rule: 'LEAD-3',
      expected: 'stale_timestamp',
      status: 400,
      send: (p) => deliver(p, ADA, { timestamp: stale(), signature: null }),
    },
    {
      rule: 'LEAD-4',
      expected: 'invalid_signature',
      status: 401,
      send: (p) => deliver(p, 'not json', { signature: bad }),
    },
    { rule: 'LEAD-4', expected: 'invalid_signature', status: 401, send: (p) => deliver(p, {}, { signature: bad }) },
  ];
  it.each(orders)('[$rule] [LEAD-14] $expected wins over the checks after it', async (c) => {
    const { property } = await h.createProperty();
    expectRejection(await c.send(property.id), c.status, c.expected);
  });
});

describe('lead webhook signature', () => {
  it('[LEAD-4] lowercase hex HMAC-SHA256 of {id}.{timestamp}.{body} is accepted, bare or with sha256=', async () => {
    const { property } = await h.createProperty();
    const secret = deriveWebhookSecret(KEY, property.id);
    const body = JSON.stringify(ADA);
    const ts = String(Math.floor(Date.now() / 1000));
    const bare = hmacHex(secret, 'evt-bare', ts, Buffer.from(body));
    // The credentials package signs exactly what the spec says a sender signs.
    expect(signWebhookPayload(secret, 'evt-bare', ts, body)).toBe(bare);
    expect(bare).toMatch(/^[0-9a-f]{64}$/);
    expect((await deliver(property.id, body, { id: 'evt-bare', timestamp: ts, signature: bare })).status).toBe(200);
    const prefixed = `sha256=${hmacHex(secret, 'evt-prefixed', ts, Buffer.from(body))}`;
    expect((await deliver(property.id, body, { id: 'evt-prefixed', timestamp: ts, signature: prefixed })).status).toBe(
      200,
    );
    expect(await leadJobsOf(property.id)).toHaveLength(2);
  });

  it('[LEAD-4] uppercase hex is rejected as invalid_signature, with and without sha256=', async () => {
    const { property } = await h.createProperty();
    const secret = deriveWebhookSecret(KEY, property.id);
    const ts = String(Math.floor(Date.now() / 1000));
    const upper = hmacHex(secret, 'evt-upper', ts, Buffer.from(JSON.stringify(ADA))).toUpperCase();
    for (const signature of [upper, `sha256=${upper}`]) {
      expectRejection(
        await deliver(property.id, ADA, { id: 'evt-upper', timestamp: ts, signature }),
        401,
        'invalid_signature',
      );
    }
    expect(await leadJobsOf(property.id)).toEqual([]);
  });

  it('[LEAD-4] the signature covers the exact bytes: the same JSON with other spacing is rejected', async () => {
    const { property } = await h.createProperty();
    const pretty = JSON.stringify(ADA, null, 2);
    expectRejection(await deliver(property.id, JSON.stringify(ADA), { signedBody: pretty }), 401, 'invalid_signature');
    expectRejection(await deliver(property.id, pretty, { signedBody: JSON.stringify(ADA) }), 401, 'invalid_signature');
    // Serialised once, signed and sent as is, the pretty body is a lead like any other.
    expect((await deliver(property.id, pretty)).status).toBe(200);
  });

  it('[LEAD-4] the id and the timestamp are inside the signature', async () => {
    const { property } = await h.createProperty();
    const secret = deriveWebhookSecret(KEY, property.id);
    const ts = Math.floor(Date.now() / 1000);
    const signature = hmacHex(secret, 'evt-1', String(ts), Buffer.from(JSON.stringify(ADA)));
    expectRejection(
      await deliver(property.id, ADA, { id: 'evt-2', timestamp: String(ts), signature }),
      401,
      'invalid_signature',
    );
    expectRejection(
      await deliver(property.id, ADA, { id: 'evt-1', timestamp: String(ts - 1), signature }),
      401,
      'invalid_signature',
    );
  });

  it('[LEAD-4] the HMAC key is the secret as shown (its UTF-8 bytes), not a decoding of it', async () => {
    const { property } = await h.createProperty();
    const secret = deriveWebhookSecret(KEY, property.id);
    const shown = secret.replace(/^whsec_/, '');
    const ts = String(Math.floor(Date.now() / 1000));
    const body = Buffer.from(JSON.stringify(ADA));
    for (const key of [Buffer.from(shown, 'base64url'), Buffer.from(shown, 'utf8')]) {
      const signature = createHmac('sha256', key).update(`evt.${ts}.`).update(body).digest('hex');
      expectRejection(
        await deliver(property.id, body, { id: 'evt', timestamp: ts, signature }),
        401,
        'invalid_signature',
      );
    }
  });

  it("[LEAD-4] [LEAD-17] another property's secret does not sign for this one", async () => {
    const { property } = await h.createProperty();
    const { property: other } = await h.createProperty();
    const secret = deriveWebhookSecret(KEY, other.id);
    expectRejection(await deliver(property.id, ADA, { secret }), 401, 'invalid_signature');
  });
});

describe('lead webhook signing secret', () => {
  it('[LEAD-17] the secret is derived from the property: stable for it, distinct from other properties', async () => {
    const { property } = await h.createProperty();
    const { property: other } = await h.createProperty();
    expect(deriveWebhookSecret(KEY, property.id)).toBe(deriveWebhookSecret(KEY, property.id));
    expect(deriveWebhookSecret(KEY, property.id)).not.toBe(deriveWebhookSecret(KEY, other.id));
    expect((await deliver(property.id, ADA, { secret: deriveWebhookSecret(KEY, property.id) })).status).toBe(200);
  });

  it('[LEAD-17] a secret derived under another deployment key does not verify; rotating the key rotates every secret', async () => {
    const { property } = await h.createProperty();
    const { property: second } = await h.createProperty();
    const rotatedKey = `${KEY}-rotated`;
    for (const p of [property, second]) {
      // The old secret stops working on the rotated deployment; the new one works there and only there.
      const oldSecret = deriveWebhookSecret(KEY, p.id);
      const newSecret = deriveWebhookSecret(rotatedKey, p.id);
      expect(newSecret).not.toBe(oldSecret);
      expectRejection(await deliver(p.id, ADA, { secret: oldSecret, app: rotated.app }), 401, 'invalid_signature');
      expect((await deliver(p.id, ADA, { secret: newSecret, app: rotated.app })).status).toBe(200);
      expectRejection(await deliver(p.id, ADA, { secret: newSecret }), 401, 'invalid_signature');
    }
  });
});

describe('lead webhook payload', () => {
  it('[LEAD-5] [LEAD-6] invalid_payload names each bad field in details', async () => {
    const { property } = await h.createProperty();
    const res = await deliver(property.id, { email: 'not-an-email', sessionId: 's'.repeat(129), utmSource: 7 });
    expectRejection(res, 400, 'invalid_payload');
    const details = res.body.details as { field: string; problem: string }[];
    expect(details.map((d) => d.field).sort()).toEqual(['contact', 'email', 'sessionId', 'utmSource']);
    for (const d of details) expect(d.problem).toEqual(expect.stringMatching(/\S/));
    expect(await leadJobsOf(property.id)).toEqual([]);
  });

  it('[LEAD-6] contact is required: absent, empty, blank or not a string', async () => {
    const { property } = await h.createProperty();
    for (const body of [{}, { contact: '' }, { contact: '   ' }, { contact: 42 }, { Contact: 'Ada' }]) {
      const res = await deliver(property.id, body);
      expectRejection(res, 400, 'invalid_payload');
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['contact']);
    }
  });

  it('[LEAD-5] valid JSON that is not an object (array, null, string, number) is invalid_payload', async () => {
    const { property } = await h.createProperty();
    for (const body of ['[]', `[${JSON.stringify(ADA)}]`, 'null', '"Ada"', '42']) {
      const res = await deliver(property.id, body);
      expectRejection(res, 400, 'invalid_payload');
      expect(res.body.details.length).toBeGreaterThan(0);
    }
  });

  it('[LEAD-7] misnamed keys are dropped, listed in ignoredFields, and suggested as {field, suggestion}', async () => {
    const { property } = await h.createProperty();
    const res = await deliver(property.id, {
      contact: 'Ada',
      utm_source: 'chatgpt',
      utm_medium: 'cpc',
      session_id: 'abc',
      landing_page: '/a',
      'landing-page': '/b',
      landingPage: '/c',
      referer: 'https://chatgpt.com/',
      Referrer: 'https://chatgpt.com/',
      'e-mail': 'not even an email',
      favouriteColour: 'blue',
    });
    expect(res.status).toBe(200);
    expect(res.body.ignoredFields.sort()).toEqual(
      [
        'utm_source',
        'utm_medium',
        'session_id',
        'landing_page',
        'landing-page',
        'landingPage',
        'referer',
        'Referrer',
        'e-mail',
        'favouriteColour',
      ].sort(),
    );
    const byField = (a: { field: string }, b: { field: string }) => a.field.localeCompare(b.field);
    expect([...res.body.fieldSuggestions].sort(byField)).toEqual(
      [
        { field: 'utm_source', suggestion: 'utmSource' },
        { field: 'utm_medium', suggestion: 'utmMedium' },
        { field: 'session_id', suggestion: 'sessionId' },
        { field: 'landing_page', suggestion: 'landingPath' },
        { field: 'landing-page', suggestion: 'landingPath' },
        { field: 'landingPage', suggestion: 'landingPath' },
        { field: 'referer', suggestion: 'referrer' },
        { field: 'Referrer', suggestion: 'referrer' },
        { field: 'e-mail', suggestion: 'email' },
      ].sort(byField),
    );
    // Nothing misnamed was taken as its field: the lead is the contact alone, and not attributed.
    expect(res.body).toMatchObject({ matched: false, platform: 'unclassified' });
    const [job] = await leadJobsOf(property.id);
    expect(job?.lead).toEqual({ contact: 'Ada' });
  });

  it('[LEAD-7] snake_case is never taken as the field, even beside the camelCase one', async () => {
    const { property } = await h.createProperty();
    const res = await deliver(property.id, { contact: 'Ada', utmSource: 'newsletter', utm_source: 'chatgpt' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matched: false, platform: 'unclassified', ignoredFields: ['utm_source'] });
    expect(res.body.fieldSuggestions).toEqual([{ field: 'utm_source', suggestion: 'utmSource' }]);
    const [job] = await leadJobsOf(property.id);
    expect(job?.lead).toEqual({ contact: 'Ada', utmSource: 'newsletter' });
  });

  it('[LEAD-7] a key that looks like no field is ignored without a suggestion; __proto__ is just a key', async () => {
    const { property } = await h.createProperty();
    const res = await deliver(property.id, '{"contact":"Ada","utm_campaign":"spring","__proto__":{"admin":true}}');
    expect(res.status).toBe(200);
    expect(res.body.ignoredFields.sort()).toEqual(['__proto__', 'utm_campaign']);
    expect(res.body.fieldSuggestions).toEqual([]);
    const [job] = await leadJobsOf(property.id);
    expect(job?.lead).toEqual({ contact: 'Ada' });
  });
});

describe('lead webhook classification', () => {
  const cases: { lead: Record<string, string>; platform: string }[] = [
    { lead: { referrer: 'https://chatgpt.com/c/123' }, platform: 'chatgpt' },
    { lead: { referrer: 'chat.openai.com' }, platform: 'chatgpt' },
    { lead: { referrer: 'https://www.perplexity.ai/search?q=crm' }, platform: 'perplexity' },
    { lead: { referrer: 'claude.ai' }, platform: 'claude' },
    { lead: { referrer: 'https://gemini.google.com/app' }, platform: 'gemini' },
    { lead: { referrer: 'https://copilot.microsoft.com/' }, platform: 'copilot' },
    { lead: { referrer: 'https://notchatgpt.com/' }, platform: 'unclassified' },
    { lead: { referrer: 'https://chatgpt.com.evil.test/' }, platform: 'unclassified' },
    { lead: { referrer: 'notperplexity.ai' }, platform: 'unclassified' },
    { lead: { referrer: 'https://www.google.com/search?q=best+crm' }, platform: 'unclassified' },
    { lead: { referrer: 'https://google.com/' }, platform: 'unclassified' },
    { lead: { utmSource: 'chatgpt.com' }, platform: 'chatgpt' },
    { lead: { utmSource: 'perplexity' }, platform: 'perplexity' },
    { lead: { utmSource: 'notchatgpt.com' }, platform: 'unclassified' },
    { lead: { utmSource: 'chatgpt.com.evil.test' }, platform: 'unclassified' },
    { lead: { utmSource: 'google' }, platform: 'unclassified' },
    { lead: { utmMedium: 'chatgpt.com' }, platform: 'unclassified' },
    { lead: { utmMedium: 'chatgpt' }, platform: 'unclassified' },
    { lead: { referrer: 'https://claude.ai/', utmSource: 'chatgpt' }, platform: 'claude' },
    { lead: { referrer: 'https://news.ycombinator.com/', utmSource: 'perplexity.ai' }, platform: 'perplexity' },
    {
      lead: { referrer: 'https://google.com/', utmSource: 'newsletter', utmMedium: 'claude.ai' },
      platform: 'unclassified',
    },
  ];
  it.each(cases)('[LEAD-10] [LEAD-12] $lead → $platform', async ({ lead, platform }) => {
    const { property } = await h.createProperty();
    const res = await deliver(property.id, { contact: 'Ada', ...lead });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matched: platform !== 'unclassified', platform });
    const [job] = await leadJobsOf(property.id);
    expect(job?.platform).toBe(platform === 'unclassified' ? null : platform);
  });

  it('[LEAD-10] the five platforms are the identifiers of the shared AI platform table', () => {
    expect([...AI_PLATFORM_IDS].sort()).toEqual(['chatgpt', 'claude', 'copilot', 'gemini', 'perplexity']);
    expect(AI_PLATFORM_IDS).not.toContain('unclassified');
  });
});

describe('lead webhook result', () => {
  it('[LEAD-12] 200 answers exactly leadId, matched, platform, warnings, ignoredFields, fieldSuggestions', async () => {
    const { property } = await h.createProperty();
    const eventId = randomUUID();
    const lead = {
      contact: 'Ada',
      email: 'ada@example.com',
      sessionId: 's-1',
      landingPath: '/pricing',
      referrer: 'https://chatgpt.com/',
      utmSource: 'chatgpt',
      utmMedium: 'referral',
    };
    const res = await deliver(property.id, lead, { id: eventId });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual([
      'fieldSuggestions',
      'ignoredFields',
      'leadId',
      'matched',
      'platform',
      'warnings',
    ]);
    expect(res.body).toEqual({
      leadId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      matched: true,
      platform: 'chatgpt',
      warnings: [],
      ignoredFields: [],
      fieldSuggestions: [],
    });
    // Durably enqueued before the answer: the job carries the lead as sent, under the same lead id.
    expect(await leadJobsOf(property.id)).toEqual([
      expect.objectContaining({ leadId: res.body.leadId, propertyId: property.id, eventId, lead, platform: 'chatgpt' }),
    ]);
  });
});

describe('lead webhook deduplication', () => {
  it('[LEAD-8] a second delivery of an id answers the first lead with duplicate_event and enqueues nothing', async () => {
    const { property } = await h.createProperty();
    const id = randomUUID();
    const first = await deliver(property.id, { contact: 'Ada', referrer: 'https://chatgpt.com/' }, { id });
    expect(first.status).toBe(200);
    // Deduplication is on the id only: a different body under the same id is still the first lead.
    for (const body of [
      { contact: 'Ada', referrer: 'https://chatgpt.com/' },
      { contact: 'Bob', referrer: 'claude.ai', x: 1 },
    ]) {
      const again = await deliver(property.id, body, { id });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, warnings: ['duplicate_event'] });
    }
    expect(await leadJobsOf(property.id)).toHaveLength(1);
  });

  it('[LEAD-8] identical bodies under different ids are two leads', async () => {
    const { property } = await h.createProperty();
    const body = JSON.stringify({ contact: 'Ada', referrer: 'claude.ai' });
    const a = await deliver(property.id, body);
    const b = await deliver(property.id, body);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.leadId).not.toBe(b.body.leadId);
    expect([a.body.warnings, b.body.warnings]).toEqual([[], []]);
    expect((await leadJobsOf(property.id)).map((j) => j.leadId).sort()).toEqual([a.body.leadId, b.body.leadId].sort());
  });

  it('[LEAD-8] the same id on two properties is two leads', async () => {
    const { property } = await h.createProperty();
    const { property: other } = await h.createProperty();
    const a = await deliver(property.id, ADA, { id: 'order-1' });
    const b = await deliver(other.id, ADA, { id: 'order-1' });
    expect([a.body.warnings, b.body.warnings]).toEqual([[], []]);
    expect(a.body.leadId).not.toBe(b.body.leadId);
  });

  it('[LEAD-8] a rejected delivery is no lead: the corrected retry under the same id is not a duplicate', async () => {
    const { property } = await h.createProperty();
    const id = randomUUID();
    expectRejection(await deliver(property.id, ADA, { id, signature: 'a'.repeat(64) }), 401, 'invalid_signature');
    expectRejection(await deliver(property.id, { email: 'ada@example.com' }, { id }), 400, 'invalid_payload');
    const ok = await deliver(property.id, ADA, { id });
    expect(ok.status).toBe(200);
    expect(ok.body.warnings).toEqual([]);
    expect(await leadJobsOf(property.id)).toHaveLength(1);
  });

  it('[LEAD-8] concurrent deliveries of one id all answer the same lead, and one job is enqueued', async () => {
    const { property } = await h.createProperty();
    const id = randomUUID();
    const body = JSON.stringify({ contact: 'Ada', referrer: 'perplexity.ai' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(property.id, body, { id })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.leadId)).size).toBe(1);
    for (const a of answers) {
      expect(a.body).toMatchObject({ matched: true, platform: 'perplexity' });
      expect(['[]', '["duplicate_event"]']).toContain(JSON.stringify(a.body.warnings));
    }
    const jobs = await leadJobsOf(property.id);
    expect(jobs.map((j) => j.leadId)).toEqual([answers[0]?.body.leadId]);
  });
});

describe('lead webhook delivery log', () => {
  it('[LEAD-15] an accepted lead is a 200 row saying what was done, with the body and no reason', async () => {
    const { property } = await h.createProperty();
    const body = JSON.stringify({ contact: 'Ada', referrer: 'https://chatgpt.com/' });
    const res = await deliver(property.id, body);
    const dup = await deliver(property.id, body, { id: 'dup' });
    await deliver(property.id, body, { id: 'dup' });
    const rows = await webhookRows(property.id);
    expect(rows.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const [duplicate, firstOfDup, accepted] = rows;
    expect(accepted).toMatchObject({ requestBody: body, reason: null, fix: null, leadId: res.body.leadId });
    expect(accepted?.outcome).toEqual(expect.stringMatching(/\S/));
    expect(firstOfDup?.leadId).toBe(dup.body.leadId);
    // The duplicate's row says something else happened: nothing was stored.
    expect(duplicate?.outcome).toEqual(expect.stringMatching(/\S/));
    expect(duplicate?.outcome).not.toBe(firstOfDup?.outcome);
  });

  it('[LEAD-15] a rejection before or at the signature check keeps the reason and the fix, never the body', async () => {
    const { property } = await h.createProperty();
    const body = JSON.stringify({ contact: 'secret lead', email: 'lead@example.com' });
    await deliver(property.id, body, { id: null });
    await deliver(property.id, body, { timestamp: null });
    await deliver(property.id, body, { timestamp: stale() });
    await deliver(property.id, body, { signature: null });
    await deliver(property.id, body, { signature: 'b'.repeat(64) });
    const rows = await webhookRows(property.id);
    expect(rows.map((r) => [r.statusCode, r.reason]).reverse()).toEqual([
      [400, 'missing_event_id'],
      [400, 'missing_timestamp'],
      [400, 'stale_timestamp'],
      [401, 'missing_signature'],
      [401, 'invalid_signature'],
    ]);
    for (const row of rows) {
      expect(row.requestBody).toBeNull();
      expect(row.leadId).toBeNull();
      expect(row.fix).toEqual(expect.stringMatching(/\S/));
      expect(row.outcome).toEqual(expect.stringMatching(/\S/));
    }
  });

  it('[LEAD-15] the answer does not wait for its row: the lead is queued and deduplicated first, the row follows', async () => {
    const { property } = await slowLog.createProperty();
    const id = randomUUID();
    const first = await deliver(property.id, ADA, { id, app: slowLog.app });
    expect(first.status).toBe(200);
    const again = await deliver(property.id, ADA, { id, app: slowLog.app });
    expect(again.body).toEqual({ ...first.body, warnings: ['duplicate_event'] });
    expectRejection(await deliver(property.id, ADA, { signature: null, app: slowLog.app }), 401, 'missing_signature');
    // Answered, the lead durably queued once, and not one of the three rows written yet.
    expect((await slowLog.leadJobs()).filter((j) => j.propertyId === property.id).map((j) => j.leadId)).toEqual([
      first.body.leadId,
    ]);
    expect(await recentDeliveries(slowLog.db, property.id, 'webhook')).toEqual([]);
    await slowLog.flushDeliveryLog();
    const rows = await recentDeliveries(slowLog.db, property.id, 'webhook');
    expect(rows.map((r) => [r.statusCode, r.reason, r.leadId]).reverse()).toEqual([
      [200, null, first.body.leadId],
      [200, null, first.body.leadId],
      [401, 'missing_signature', null],
    ]);
  });

  it('[LEAD-15] a rejection after the signature check keeps the reason, the fix and the body', async () => {
    const { property } = await h.createProperty();
    const notJson = '{"contact": "Ada",';
    const invalid = JSON.stringify({ contact: 'Ada', email: 'nope' });
    await deliver(property.id, notJson);
    await deliver(property.id, invalid);
    const rows = await webhookRows(property.id);
    expect(rows.map((r) => [r.statusCode, r.reason, r.requestBody]).reverse()).toEqual([
      [400, 'invalid_json', notJson],
      [400, 'invalid_payload', invalid],
    ]);
    for (const row of rows) expect(row.fix).toEqual(expect.stringMatching(/\S/));
  });
});
