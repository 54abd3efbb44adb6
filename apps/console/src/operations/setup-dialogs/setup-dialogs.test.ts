import { randomUUID } from 'node:crypto';
import {
  AKAMAI_FIELDS,
  CLOUDFRONT_SETUP_FIELDS,
  CRAWL_PROVIDER_IDS,
  CRAWL_PROVIDER_TITLES,
  FASTLY_LOG_FORMAT,
  LOGPUSH_EXTRA_FIELDS,
  LOGPUSH_FIELDS,
} from '@vt/contracts';
import { deriveCrawlToken, deriveVercelDrainSecret, deriveWebhookSecret, verifyCrawlToken } from '@vt/credentials';
import { testEnv } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// The crawl and lead webhook setup dialogs: the crawl token and the webhook signing secret for
// owners and admins only (TEAM-5), the sender snippets, each CDN's or host's setup tab, rotating the token (CRAWL-3) or failing to
// without the deployment secret, switching ingestion off and on (CRAWL-30), and the delivery logs
// and statuses as the gateway's rows make them (CRAWL-28, LEAD-15, LEAD-16).

const h = createConsoleHarness();
afterAll(() => h.close());

const INGEST = 'https://ingest.example.test';
const PLACEHOLDER = '<crawl token: ask an owner or admin>';

/** A team with one person of each role and a growth property. */
async function setup(harness = h) {
  const owner = await harness.signUp('owner');
  const admin = await harness.signUp('admin');
  const member = await harness.signUp('member');
  const { teamId } = await harness.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => harness.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  const id = created.body.property.id as string;
  return { owner, admin, member, as, id, base: `/api/properties/${id}` };
}

type Provider = {
  id: (typeof CRAWL_PROVIDER_IDS)[number];
  title: string;
  endpointUrl: string;
  steps: string[];
  fields: { id: string; label: string; value: string }[];
  notes: string[];
};

/** A provider's value to paste, by its id. */
function field(provider: Provider | undefined, id: string): string {
  const found = provider?.fields.find((f) => f.id === id);
  if (!found) throw new Error(`${provider?.id} has no field ${id}`);
  return found.value;
}

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);
const hoursAgo = (hours: number) => secondsAgo(hours * 3600);

type Channel = 'crawl' | 'webhook';

/** One delivery-log row as the gateway writes it; an accepted lead's with the lead stored. */
async function logRow(propertyId: string, channel: Channel, statusCode: number, createdAt: Date) {
  let leadId: string | undefined;
  if (channel === 'webhook' && statusCode === 200) {
    const lead = await h.db.lead.create({
      data: {
        propertyId,
        eventId: randomUUID(),
        contact: 'a lead',
        matched: false,
        receivedAt: createdAt,
        day: new Date(createdAt.toISOString().slice(0, 10)),
      },
    });
    leadId = lead.id;
  }
  const outcome = statusCode < 300 ? 'accepted' : 'rejected';
  return h.db.deliveryLogEntry.create({ data: { propertyId, channel, statusCode, outcome, createdAt, leadId } });
}

describe('the webhook setup dialog', () => {
  it('[TEAM-5] shows the URL and the signing secret to owners and admins', async () => {
    const t = await setup();
    for (const person of [t.owner, t.admin]) {
      const res = await t.as(person).get(`${t.base}/webhook`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        propertyId: t.id,
        url: `${INGEST}/api/webhooks/leads/${t.id}`,
        signingSecret: deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, t.id),
        secretRotatedAt: null,
        previousSecret: null,
        secretRotation: 'deployment',
        status: 'not_verified',
        latestRefusal: null,
        lastAttemptAt: null,
        lastAcceptedAt: null,
        notes: [],
      });
    }
  });

  it('[TEAM-5] shows members the URL and status, but no signing secret anywhere in the answer', async () => {
    const t = await setup();
    const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, t.id);
    const res = await t.as(t.member).get(`${t.base}/webhook`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: `${INGEST}/api/webhooks/leads/${t.id}`,
      signingSecret: null,
      status: 'not_verified',
      notes: ['The signing secret is shown to owners and admins only.'],
    });
    expect(res.text).not.toContain(secret);
  });

  // LEAD-17 under the deployment's default (WEBHOOK_SECRET_ROTATION=deployment): there is no
  // per-property rotation, so its path answers as a path the console never had; a deployment that
  // opts in gets rotate-webhook-secret.test.ts.
  it('[LEAD-17] offers no per-property rotation: the secret stays the derived one, through a crawl token rotation too', async () => {
    const t = await setup();
    const before = (await t.as(t.owner).get(`${t.base}/webhook`)).body.signingSecret;
    expect(before).toBe(deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, t.id));
    const rotate = await t.as(t.owner).post(`${t.base}/webhook/rotate`);
    expect(rotate.status).toBe(404);
    expect(rotate.body.error.code).toBe('NOT_FOUND');
    await t.as(t.owner).post(`${t.base}/crawl/rotate`);
    expect((await t.as(t.owner).get(`${t.base}/webhook`)).body.signingSecret).toBe(before);
  });

  it('[LEAD-16] is Not verified until something arrives, then Verified; a refusal after a lead stored within 24 hours stays Verified with a warning', async () => {
    const t = await setup();
    const status = async () => (await t.as(t.member).get(`${t.base}/webhook`)).body;
    expect((await status()).status).toBe('not_verified');
    // Crawl attempts say nothing about the webhook.
    await logRow(t.id, 'crawl', 202, secondsAgo(60));
    expect((await status()).status).toBe('not_verified');

    await logRow(t.id, 'webhook', 401, secondsAgo(50));
    const lastRejected = secondsAgo(40);
    await logRow(t.id, 'webhook', 400, lastRejected);
    expect(await status()).toMatchObject({
      status: 'rejecting',
      lastAttemptAt: lastRejected.toISOString(),
      lastAcceptedAt: null,
    });

    const accepted = secondsAgo(30);
    await logRow(t.id, 'webhook', 200, accepted);
    expect(await status()).toMatchObject({
      status: 'verified',
      lastAttemptAt: accepted.toISOString(),
      lastAcceptedAt: accepted.toISOString(),
    });

    const rejected = secondsAgo(20);
    await logRow(t.id, 'webhook', 401, rejected);
    expect(await status()).toMatchObject({
      status: 'verified',
      latestRefusal: { at: rejected.toISOString(), statusCode: 401 },
      lastAttemptAt: rejected.toISOString(),
      lastAcceptedAt: accepted.toISOString(),
    });

    // Once the stored lead is over 24 hours old, every recent attempt was refused: Rejecting events.
    await h.db.deliveryLogEntry.updateMany({
      where: { propertyId: t.id, channel: 'webhook', statusCode: 200 },
      data: { createdAt: hoursAgo(25) },
    });
    expect(await status()).toMatchObject({ status: 'rejecting', latestRefusal: null });
  });
});

describe('the crawl setup dialog', () => {
  it('[TEAM-5] shows owners and admins the endpoint, the token, the status and snippets carrying both', async () => {
    const t = await setup();
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const endpointUrl = `${INGEST}/api/ingest/crawl/${t.id}`;
    for (const person of [t.owner, t.admin]) {
      const res = await t.as(person).get(`${t.base}/crawl`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        propertyId: t.id,
        endpointUrl,
        token,
        tokenVersion: 1,
        ingestionEnabled: true,
        status: 'not_verified',
        lastAttemptAt: null,
        lastAcceptedAt: null,
        verificationRestartedAt: null,
        notes: [],
      });
      expect(res.body.snippets.map((s: { id: string }) => s.id)).toEqual(['curl', 'node', 'vector']);
      for (const snippet of res.body.snippets) {
        expect(snippet.code, snippet.id).toContain(endpointUrl);
        expect(snippet.code, snippet.id).toContain(`Bearer ${token}`);
        expect(snippet.code, snippet.id).not.toContain(PLACEHOLDER);
      }
    }
  });

  it('[TEAM-5] shows members the endpoint and status, with no token in the answer or any snippet', async () => {
    const t = await setup();
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const res = await t.as(t.member).get(`${t.base}/crawl`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      endpointUrl: `${INGEST}/api/ingest/crawl/${t.id}`,
      token: null,
      tokenVersion: 1,
      status: 'not_verified',
      notes: ['The token is shown to owners and admins only.'],
    });
    expect(res.body.snippets).toHaveLength(3);
    for (const snippet of res.body.snippets) {
      expect(snippet.code, snippet.id).toContain(res.body.endpointUrl);
      expect(snippet.code, snippet.id).toContain(PLACEHOLDER);
      expect(snippet.code, snippet.id).not.toMatch(/vtc_/);
    }
    expect(res.text).not.toContain(token);
  });

  it('sets up every CDN and host: its endpoint, the Logpush URL with the bearer, the lists the gateway reads, the Vercel secret', async () => {
    const t = await setup();
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const endpointUrl = `${INGEST}/api/ingest/crawl/${t.id}`;
    const res = await t.as(t.owner).get(`${t.base}/crawl`);
    expect(res.status).toBe(200);
    const providers: Provider[] = res.body.providers;
    expect(providers.map((p) => p.id)).toEqual([...CRAWL_PROVIDER_IDS]);
    for (const provider of providers) {
      expect(provider.title).toBe(CRAWL_PROVIDER_TITLES[provider.id]);
      expect(provider.endpointUrl, provider.id).toBe(`${endpointUrl}/${provider.id}`);
      expect(provider.steps.length, provider.id).toBeGreaterThan(2);
      // The endpoint is pasted somewhere, and the token (or the bearer carrying it) too.
      expect(
        provider.fields.some((f) => f.value.startsWith(provider.endpointUrl)),
        provider.id,
      ).toBe(true);
      expect(JSON.stringify(provider.fields), provider.id).toContain(token);
      expect(JSON.stringify(provider), provider.id).not.toContain(PLACEHOLDER);
    }
    const [cloudflare, vercel, netlify, fastly, akamai, firehose] = providers;

    // Logpush turns header_Authorization into the Authorization header: the bearer, URL-encoded.
    const destination = field(cloudflare, 'destination');
    expect(destination).toBe(`${endpointUrl}/cloudflare?header_Authorization=Bearer%20${encodeURIComponent(token)}`);
    expect(new URL(destination).searchParams.get('header_Authorization')).toBe(`Bearer ${token}`);
    expect(field(cloudflare, 'fields').split(', ')).toEqual([
      ...Object.values(LOGPUSH_FIELDS),
      ...LOGPUSH_EXTRA_FIELDS,
    ]);

    expect(field(vercel, 'url')).toBe(`${endpointUrl}/vercel`);
    expect(field(vercel, 'header')).toBe(`Authorization: Bearer ${token}`);
    expect(field(vercel, 'secret')).toBe(deriveVercelDrainSecret(testEnv.CRAWL_TOKEN_SECRET, t.id, 1));

    expect(field(netlify, 'authorization')).toBe(`Bearer ${token}`);
    expect(netlify?.notes.join(' ')).toContain('Exclude personally identifiable information');

    expect(field(fastly, 'format')).toBe(FASTLY_LOG_FORMAT);
    expect(field(fastly, 'contentType')).toBe('application/x-ndjson');
    expect([field(fastly, 'headerName'), field(fastly, 'headerValue')]).toEqual(['Authorization', `Bearer ${token}`]);
    expect(fastly?.steps.join(' ')).toMatch(/Newline delimited.*Blank/);

    const akamaiFields = field(akamai, 'fields');
    for (const name of Object.values(AKAMAI_FIELDS)) expect(akamaiFields).toContain(`(${name})`);
    expect(field(akamai, 'password')).toBe(token);

    expect(field(firehose, 'fields').split(', ')).toEqual([...CLOUDFRONT_SETUP_FIELDS]);
    expect(field(firehose, 'url')).toBe(`${endpointUrl}/firehose`);
    expect(field(firehose, 'accessKey')).toBe(token);
  });

  it('[TEAM-5] gives members every provider with the placeholder, and neither the token nor the Vercel secret', async () => {
    const t = await setup();
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const secret = deriveVercelDrainSecret(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const res = await t.as(t.member).get(`${t.base}/crawl`);
    expect(res.status).toBe(200);
    const providers: Provider[] = res.body.providers;
    expect(providers.map((p) => p.id)).toEqual([...CRAWL_PROVIDER_IDS]);
    for (const provider of providers) {
      expect(provider.endpointUrl).toBe(`${INGEST}/api/ingest/crawl/${t.id}/${provider.id}`);
      expect(JSON.stringify(provider.fields), provider.id).toContain(PLACEHOLDER);
    }
    const [cloudflare, vercel] = providers;
    expect(field(cloudflare, 'destination')).toBe(
      `${INGEST}/api/ingest/crawl/${t.id}/cloudflare?header_Authorization=Bearer%20${PLACEHOLDER}`,
    );
    expect(field(vercel, 'secret')).toMatch(/^<.*ask an owner or admin>$/);
    expect(res.text).not.toContain(token);
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toMatch(/vtc_/);
  });

  it('[CRAWL-3] rotate answers a new token at once: the old one no longer verifies, the new one does', async () => {
    const t = await setup();
    const old = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const res = await t.as(t.admin).post(`${t.base}/crawl/rotate`);
    expect(res.status).toBe(200);
    expect(res.body.tokenVersion).toBe(2);
    expect(res.body.token).toEqual(expect.stringMatching(/^vtc_/));
    expect(res.body.token).not.toBe(old);
    for (const snippet of res.body.snippets) expect(snippet.code).toContain(res.body.token);
    // The Vercel drain secret is derived with the token: it changes too.
    const vercel = (res.body.providers as Provider[]).find((p) => p.id === 'vercel');
    expect(field(vercel, 'secret')).toBe(deriveVercelDrainSecret(testEnv.CRAWL_TOKEN_SECRET, t.id, 2));

    const { crawlTokenVersion } = await h.db.property.findUniqueOrThrow({ where: { id: t.id } });
    expect(crawlTokenVersion).toBe(2);
    expect(verifyCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, crawlTokenVersion, old)).toBe(false);
    expect(verifyCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, crawlTokenVersion, res.body.token)).toBe(true);
    // The dialog shows the new token from now on.
    expect((await t.as(t.owner).get(`${t.base}/crawl`)).body.token).toBe(res.body.token);
  });

  it('rotate answers 503 NOT_CONFIGURED without the deployment secret; the token is null with a note', async () => {
    const bare = createConsoleHarness({ connection: { crawlTokenSecret: undefined } });
    try {
      const t = await setup(bare);
      const rotate = await t.as(t.owner).post(`${t.base}/crawl/rotate`);
      expect(rotate.status).toBe(503);
      expect(rotate.body.error.code).toBe('NOT_CONFIGURED');
      expect((await bare.db.property.findUniqueOrThrow({ where: { id: t.id } })).crawlTokenVersion).toBe(1);

      const dialog = await t.as(t.owner).get(`${t.base}/crawl`);
      expect(dialog.status).toBe(200);
      expect(dialog.body).toMatchObject({ endpointUrl: `${INGEST}/api/ingest/crawl/${t.id}`, token: null });
      expect(dialog.body.notes).toEqual([expect.stringContaining('CRAWL_TOKEN_SECRET is not set')]);
      for (const snippet of dialog.body.snippets) expect(snippet.code).toContain(PLACEHOLDER);
      // No deployment secret, no drain secret either: the providers carry placeholders.
      const vercel = (dialog.body.providers as Provider[]).find((p) => p.id === 'vercel');
      expect(field(vercel, 'header')).toContain(PLACEHOLDER);
      expect(field(vercel, 'secret')).toMatch(/^<.*ask an owner or admin>$/);
      // The webhook secret does not depend on the crawl secret.
      expect((await t.as(t.owner).get(`${t.base}/webhook`)).body.signingSecret).toBe(
        deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, t.id),
      );
    } finally {
      await bare.close();
    }
  });

  it('[CRAWL-30] the status follows the log: Not verified, Connected (a refusal after an accepted batch warns), Rejecting, Nothing arriving', async () => {
    const t = await setup();
    const status = async () => (await t.as(t.member).get(`${t.base}/crawl`)).body;
    expect((await status()).status).toBe('not_verified');
    // Webhook attempts say nothing about crawl ingest.
    await logRow(t.id, 'webhook', 200, secondsAgo(90));
    expect((await status()).status).toBe('not_verified');

    const accepted = secondsAgo(60);
    await logRow(t.id, 'crawl', 202, accepted);
    expect(await status()).toMatchObject({
      status: 'connected',
      lastAttemptAt: accepted.toISOString(),
      lastAcceptedAt: accepted.toISOString(),
    });
    // One refusal after an accepted batch of the last 24 hours: still Connected, the refusal named.
    const refused = secondsAgo(30);
    await logRow(t.id, 'crawl', 401, refused);
    expect(await status()).toMatchObject({
      status: 'connected',
      latestRefusal: { at: refused.toISOString(), statusCode: 401 },
      lastAcceptedAt: accepted.toISOString(),
    });
    // The accepted batch over 24 hours old, refused since: Rejecting.
    await h.db.deliveryLogEntry.updateMany({
      where: { propertyId: t.id, channel: 'crawl', statusCode: 202 },
      data: { createdAt: hoursAgo(25) },
    });
    expect(await status()).toMatchObject({ status: 'rejecting', latestRefusal: null });

    await h.db.deliveryLogEntry.updateMany({ where: { propertyId: t.id }, data: { createdAt: hoursAgo(25) } });
    expect((await status()).status).toBe('nothing_arriving');
  });

  it('[CRAWL-30] disconnect shows Disconnected with ingestion off; reconnect returns to Not verified', async () => {
    const t = await setup();
    await logRow(t.id, 'crawl', 202, secondsAgo(60));
    expect((await t.as(t.member).get(`${t.base}/crawl`)).body.status).toBe('connected');

    const off = await t.as(t.admin).post(`${t.base}/crawl/disconnect`);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ status: 'disconnected', ingestionEnabled: false });
    expect((await h.db.property.findUniqueOrThrow({ where: { id: t.id } })).crawlIngestionEnabled).toBe(false);
    expect((await t.as(t.member).get(`${t.base}/crawl`)).body).toMatchObject({
      status: 'disconnected',
      ingestionEnabled: false,
    });

    const on = await t.as(t.owner).post(`${t.base}/crawl/reconnect`);
    expect(on.status).toBe(200);
    // The accepted batch before the reconnect no longer counts: verification starts over.
    expect(on.body).toMatchObject({
      status: 'not_verified',
      ingestionEnabled: true,
      verificationRestartedAt: expect.any(String),
    });
    expect((await h.db.property.findUniqueOrThrow({ where: { id: t.id } })).crawlIngestionEnabled).toBe(true);

    await logRow(t.id, 'crawl', 202, new Date(Date.parse(on.body.verificationRestartedAt) + 1000));
    expect((await t.as(t.member).get(`${t.base}/crawl`)).body.status).toBe('connected');
  });
});

describe('the delivery logs', () => {
  it('[CRAWL-28] the crawl log shows the 50 newest of more attempts, newest first, with lines, matches, reason and fix', async () => {
    const t = await setup();
    const start = Date.now();
    const attemptAt = (i: number) => new Date(start - (600 - i) * 1000);
    // 60 crawl attempts, one a second: odd ones accepted, even ones rejected.
    await h.db.deliveryLogEntry.createMany({
      data: Array.from({ length: 60 }, (_, i) => {
        const accepted = i % 2 === 1;
        return {
          propertyId: t.id,
          channel: 'crawl' as const,
          createdAt: attemptAt(i),
          statusCode: accepted ? 202 : 401,
          outcome: accepted ? `accepted: kept ${i} of ${100 + i} lines` : 'rejected; nothing stored',
          linesReceived: accepted ? 100 + i : null,
          linesKept: accepted ? i : null,
          reason: accepted ? null : 'invalid_token',
          fix: accepted ? null : 'Use the current token from the setup dialog.',
          hostNote: i === 59 ? { count: 3, hosts: ['cdn.other.example'] } : undefined,
        };
      }),
    });
    // A newer webhook attempt is not a crawl attempt.
    await logRow(t.id, 'webhook', 200, secondsAgo(1));

    const res = await t.as(t.member).get(`${t.base}/crawl/log`);
    expect(res.status).toBe(200);
    expect(res.body.propertyId).toBe(t.id);
    expect(res.body.entries).toHaveLength(50);
    expect(res.body.entries[0]).toEqual({
      at: attemptAt(59).toISOString(),
      statusCode: 202,
      outcome: 'accepted: kept 59 of 159 lines',
      linesReceived: 159,
      linesMatched: 59,
      reason: null,
      fix: null,
      hostNote: { count: 3, hosts: ['cdn.other.example'] },
      // A sender's own row (a summary of unauthenticated attempts counts several).
      attempts: 1,
      authenticated: true,
      firstAttemptAt: null,
    });
    expect(res.body.entries[1]).toEqual({
      at: attemptAt(58).toISOString(),
      statusCode: 401,
      outcome: 'rejected; nothing stored',
      linesReceived: null,
      linesMatched: null,
      reason: 'invalid_token',
      fix: 'Use the current token from the setup dialog.',
      hostNote: null,
      // A sender's own row (a summary of unauthenticated attempts counts several).
      attempts: 1,
      authenticated: true,
      firstAttemptAt: null,
    });
    // The newest 50 are attempts 59 down to 10, in that order; the 10 oldest are not shown.
    expect(res.body.entries.map((e: { at: string }) => e.at)).toEqual(
      Array.from({ length: 50 }, (_, k) => attemptAt(59 - k).toISOString()),
    );
    expect(res.body.entries.map((e: { linesMatched: number | null }) => e.linesMatched)).toEqual(
      Array.from({ length: 50 }, (_, k) => ((59 - k) % 2 === 1 ? 59 - k : null)),
    );
  });

  it('[LEAD-15] the webhook log shows the 20 newest of 50, newest first, with a body only where the row kept one', async () => {
    const t = await setup();
    const codes = [200, 401, 400];
    await h.db.deliveryLogEntry.createMany({
      data: Array.from({ length: 50 }, (_, n) => {
        const statusCode = codes[n % 3] as number;
        return {
          propertyId: t.id,
          channel: 'webhook' as const,
          createdAt: secondsAgo(500 - n),
          statusCode,
          outcome: statusCode === 200 ? 'stored lead' : 'rejected; nothing stored',
          reason: statusCode === 200 ? null : statusCode === 401 ? 'invalid_signature' : 'invalid_payload',
          fix: statusCode === 200 ? null : 'Sign {id}.{timestamp}.{body} with the signing secret.',
          eventId: `evt_${n}`,
          // The gateway keeps the body only of attempts whose signature passed.
          requestBody: statusCode === 401 ? null : JSON.stringify({ contact: `lead ${n}` }),
        };
      }),
    });
    // A newer crawl attempt is not a webhook attempt.
    await logRow(t.id, 'crawl', 202, secondsAgo(1));

    const res = await t.as(t.member).get(`${t.base}/webhook/log`);
    expect(res.status).toBe(200);
    expect(res.body.propertyId).toBe(t.id);
    expect(res.body.entries.map((e: { eventId: string }) => e.eventId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `evt_${49 - i}`),
    );
    // 49 % 3 = 1: a 401, then a 200 (48) and a 400 (47).
    expect(res.body.entries[0]).toEqual({
      at: expect.any(String),
      statusCode: 401,
      outcome: 'rejected; nothing stored',
      reason: 'invalid_signature',
      fix: 'Sign {id}.{timestamp}.{body} with the signing secret.',
      eventId: 'evt_49',
      requestBody: null,
      // A sender's own row (a summary of unauthenticated attempts counts several).
      attempts: 1,
      authenticated: true,
      firstAttemptAt: null,
    });
    expect(res.body.entries[1]).toMatchObject({
      statusCode: 200,
      outcome: 'stored lead',
      reason: null,
      fix: null,
      requestBody: '{"contact":"lead 48"}',
    });
    expect(res.body.entries[2]).toMatchObject({
      statusCode: 400,
      reason: 'invalid_payload',
      requestBody: '{"contact":"lead 47"}',
    });
    for (const entry of res.body.entries) {
      if (entry.statusCode === 401) expect(entry.requestBody, entry.eventId).toBeNull();
      else expect(entry.requestBody, entry.eventId).toBe(`{"contact":"lead ${entry.eventId.slice(4)}"}`);
    }
    // The newest attempt was turned away: Rejecting events.
    expect((await t.as(t.member).get(`${t.base}/webhook`)).body.status).toBe('rejecting');
  });
});
