import { deriveCrawlToken, deriveWebhookSecret, verifyCrawlToken } from '@vt/credentials';
import { testEnv } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// The crawl and webhook setup dialogs: the token and signing secret for owners and admins only
// (TEAM-5), rotation, switching ingestion off and on, the statuses and the delivery logs.

const h = createConsoleHarness();
afterAll(() => h.close());

async function setup() {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  const id = created.body.property.id as string;
  return { owner, admin, member, as, id };
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('the setup dialogs', () => {
  it('[TEAM-5] show the webhook URL and signing secret to owners and admins, and no secret to members', async () => {
    const t = await setup();
    const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, t.id);
    for (const person of [t.owner, t.admin]) {
      const res = await t.as(person).get(`/api/properties/${t.id}/webhook`);
      expect(res.body).toMatchObject({
        url: `https://ingest.example.test/api/webhooks/leads/${t.id}`,
        signingSecret: secret,
        status: 'not_verified',
      });
    }
    const asMember = await t.as(t.member).get(`/api/properties/${t.id}/webhook`);
    expect(asMember.status).toBe(200);
    expect(asMember.body).toMatchObject({ url: expect.any(String), signingSecret: null });
    expect(JSON.stringify(asMember.body)).not.toContain(secret);
  });

  it('[TEAM-5] show the crawl token and snippets with it to owners and admins; members get neither', async () => {
    const t = await setup();
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const asAdmin = await t.as(t.admin).get(`/api/properties/${t.id}/crawl`);
    expect(asAdmin.body).toMatchObject({
      endpointUrl: `https://ingest.example.test/api/ingest/crawl/${t.id}`,
      token,
      tokenVersion: 1,
      ingestionEnabled: true,
      status: 'not_verified',
    });
    expect(asAdmin.body.snippets.map((s: { id: string }) => s.id)).toEqual(['curl', 'node', 'vector']);
    for (const snippet of asAdmin.body.snippets) expect(snippet.code).toContain(token);
    const asMember = await t.as(t.member).get(`/api/properties/${t.id}/crawl`);
    expect(asMember.body.token).toBeNull();
    expect(JSON.stringify(asMember.body)).not.toContain(token);
    expect(asMember.body.snippets[0].code).toContain(asMember.body.endpointUrl);
  });

  it('[CRAWL-3] rotate issues a new token at once: the old one no longer verifies', async () => {
    const t = await setup();
    const old = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const res = await t.as(t.admin).post(`/api/properties/${t.id}/crawl/rotate`);
    expect(res.status).toBe(200);
    expect(res.body.tokenVersion).toBe(2);
    expect(res.body.token).not.toBe(old);
    const stored = await h.db.property.findUniqueOrThrow({ where: { id: t.id } });
    expect(verifyCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, stored.crawlTokenVersion, old)).toBe(false);
    expect(verifyCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, stored.crawlTokenVersion, res.body.token)).toBe(true);
  });

  it('without the deployment secret: no token for anyone, a note, and rotate answers 503 NOT_CONFIGURED', async () => {
    const bare = createConsoleHarness({ connection: { crawlTokenSecret: undefined, webhookSigningKey: undefined } });
    try {
      const owner = await bare.signUp('bare');
      const { teamId } = await bare.teamOf(owner);
      const api = bare.as(owner.token, teamId);
      const id = (await api.post('/api/properties', { name: 'B', domain: 'b.example', plan: 'growth' })).body.property
        .id;
      const crawl = await api.get(`/api/properties/${id}/crawl`);
      expect(crawl.body.token).toBeNull();
      expect(crawl.body.notes).toEqual([expect.stringContaining('CRAWL_TOKEN_SECRET is not set')]);
      expect((await api.get(`/api/properties/${id}/webhook`)).body.signingSecret).toBeNull();
      const rotate = await api.post(`/api/properties/${id}/crawl/rotate`);
      expect(rotate.status).toBe(503);
      expect(rotate.body.error.code).toBe('NOT_CONFIGURED');
    } finally {
      await bare.close();
    }
  });

  it('[CRAWL-30] disconnect shows Disconnected; reconnect returns to Not verified, forgetting earlier batches', async () => {
    const t = await setup();
    await h.db.deliveryLogEntry.create({
      data: {
        propertyId: t.id,
        channel: 'crawl',
        statusCode: 202,
        outcome: 'accepted',
        linesReceived: 5,
        linesKept: 1,
        createdAt: minutesAgo(5),
      },
    });
    expect((await t.as(t.member).get(`/api/properties/${t.id}/crawl`)).body.status).toBe('connected');
    const off = await t.as(t.owner).post(`/api/properties/${t.id}/crawl/disconnect`);
    expect(off.body).toMatchObject({ status: 'disconnected', ingestionEnabled: false });
    const on = await t.as(t.owner).post(`/api/properties/${t.id}/crawl/reconnect`);
    expect(on.body).toMatchObject({
      status: 'not_verified',
      ingestionEnabled: true,
      verificationRestartedAt: expect.any(String),
    });
  });

  it('[CRAWL-28] the crawl log lists the 50 newest attempts, newest first, with lines, matches, reason and fix', async () => {
    const t = await setup();
    await h.db.deliveryLogEntry.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({
        propertyId: t.id,
        channel: 'crawl' as const,
        statusCode: i % 2 ? 202 : 401,
        outcome: i % 2 ? `accepted ${i}` : 'rejected',
        reason: i % 2 ? null : 'invalid_token',
        fix: i % 2 ? null : 'Use the current token.',
        linesReceived: i % 2 ? 100 + i : null,
        linesKept: i % 2 ? i : null,
        createdAt: minutesAgo(100 - i),
      })),
    });
    const res = await t.as(t.member).get(`/api/properties/${t.id}/crawl/log`);
    expect(res.body.entries).toHaveLength(50);
    expect(res.body.entries[0]).toMatchObject({
      statusCode: 401,
      reason: 'invalid_token',
      fix: 'Use the current token.',
    });
    expect(res.body.entries[1]).toMatchObject({
      statusCode: 202,
      outcome: 'accepted 53',
      linesReceived: 153,
      linesMatched: 53,
      reason: null,
    });
    const times = res.body.entries.map((e: { at: string }) => e.at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('[LEAD-15][LEAD-16] the webhook log shows the 20 newest of 50, bodies only where the signature passed; status follows it', async () => {
    const t = await setup();
    await h.db.deliveryLogEntry.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({
        propertyId: t.id,
        channel: 'webhook' as const,
        statusCode: i % 3 === 0 ? 401 : 200,
        outcome: i % 3 === 0 ? 'rejected' : 'stored lead',
        reason: i % 3 === 0 ? 'invalid_signature' : null,
        eventId: `evt_${i}`,
        requestBody: i % 3 === 0 ? null : `{"contact":"lead ${i}"}`,
        createdAt: minutesAgo(60 - i),
      })),
    });
    const log = await t.as(t.member).get(`/api/properties/${t.id}/webhook/log`);
    expect(log.body.entries).toHaveLength(20);
    expect(log.body.entries.map((e: { eventId: string }) => e.eventId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `evt_${29 - i}`),
    );
    for (const entry of log.body.entries) {
      if (entry.statusCode === 401) expect(entry).toMatchObject({ reason: 'invalid_signature', requestBody: null });
      else expect(entry.requestBody).toMatch(/^\{"contact":"lead \d+"\}$/);
    }
    // The newest (evt_29) is a stored lead: Verified.
    expect((await t.as(t.member).get(`/api/properties/${t.id}/webhook`)).body.status).toBe('verified');
  });
});
