import { randomUUID } from 'node:crypto';
import { deriveCrawlToken, deriveWebhookSecret, generateApiKey } from '@vt/credentials';
import { crawlConnection, webhookConnection } from '@vt/properties';
import {
  isolatedQueuePrefix,
  type RunningApp,
  runScript,
  signedLeadHeaders,
  startApp,
  testDb,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 33's attacks on the ingest gateway and the read API, repeated as real requests against
// real processes (two gateways, two read APIs, a lead worker) so that what now holds keeps holding:
// junk tokens and zero signatures cannot flood a property's delivery logs or fake its statuses,
// cannot make a named batch count twice, and a revoked key is refused at once on every replica.

const db = testDb();
const queuePrefix = isolatedQueuePrefix();
const env = { QUEUE_PREFIX: queuePrefix };
const apps: RunningApp[] = [];
let gateways: RunningApp[] = [];
let readApis: RunningApp[] = [];

beforeAll(async () => {
  [gateways, readApis] = await Promise.all([
    Promise.all([
      startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
      startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
    ]),
    // The key cache's default lifetime (5 s): the revocation must not wait for it.
    Promise.all([
      startApp('apps/read-api/src/main.ts', 'READ_API_PORT', { ...env, API_KEY_CACHE_TTL_MS: '5000' }),
      startApp('apps/read-api/src/main.ts', 'READ_API_PORT', { ...env, API_KEY_CACHE_TTL_MS: '5000' }),
    ]),
  ]);
  apps.push(...gateways, ...readApis);
  apps.push(await startApp('apps/lead-worker/src/main.ts', 'LEAD_WORKER_METRICS_PORT', env));
}, 90_000);

afterAll(async () => {
  for (const app of apps) app.child.kill('SIGTERM');
  await Promise.all(apps.map((app) => app.exited));
});

async function newProperty() {
  const slug = uniqueSlug('sec33');
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: slug, domain: `${slug}.example`, plan: 'growth', brandTerms: [slug] },
  });
  return {
    team,
    property,
    token: deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion),
  };
}

const crawlLine = (domain: string) =>
  `${JSON.stringify({
    timestamp: new Date().toISOString(),
    host: domain,
    path: '/pricing',
    userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    statusCode: 200,
  })}\n`;

function postCrawl(to: RunningApp, propertyId: string, token: string, body: string, key?: string) {
  return fetch(`${to.url}/api/ingest/crawl/${propertyId}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/x-ndjson',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body,
  });
}

/** The gateways answer before their log rows are written (≤ 100 ms later): wait for the rows. */
async function settledRows(propertyId: string, channel: 'crawl' | 'webhook', attempts: number) {
  await expect
    .poll(
      async () =>
        (await db.deliveryLogEntry.findMany({ where: { propertyId, channel }, select: { attempts: true } })).reduce(
          (sum, row) => sum + row.attempts,
          0,
        ),
      { timeout: 10_000 },
    )
    .toBe(attempts);
  return db.deliveryLogEntry.findMany({ where: { propertyId, channel }, orderBy: { createdAt: 'desc' } });
}

describe('issue 33, finding 1: strangers cannot flood a delivery log or fake a status', () => {
  it('[CRAWL-28] [CRAWL-30] 50 posts with a junk token keep the accepted row and Connected; past the limit they answer 429', async () => {
    const { property, token } = await newProperty();
    expect((await postCrawl(gateways[0]!, property.id, token, crawlLine(property.domain))).status).toBe(202);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await postCrawl(gateways[i % 2]!, property.id, 'vtc_junk', crawlLine(property.domain));
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // 30 wrong tokens a minute from one address, on both replicas together; then 429.
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    const rows = await settledRows(property.id, 'crawl', 51);
    expect(rows.filter((r) => r.authenticated).map((r) => r.statusCode)).toEqual([202]);
    expect(
      rows
        .filter((r) => !r.authenticated)
        .map((r) => [r.reason, r.attempts])
        .sort(),
    ).toEqual([
      ['invalid_token', 30],
      ['too_many_failed_attempts', 20],
    ]);
    expect((await crawlConnection(db, property)).status).toBe('connected');
  });

  it('[CRAWL-30] wrong tokens alone leave a new property Not verified, the summary in its log', async () => {
    const { property } = await newProperty();
    // 401, or 429 once this address's failed attempts of the minute (the test above) are past the limit.
    expect([401, 429]).toContain(
      (await postCrawl(gateways[1]!, property.id, 'vtc_junk', crawlLine(property.domain))).status,
    );
    await settledRows(property.id, 'crawl', 1);
    expect((await crawlConnection(db, property)).status).toBe('not_verified');
  });

  it('[LEAD-15] [LEAD-16] 50 zero signatures keep the stored lead in the 20 shown and the status Verified', async () => {
    const { property } = await newProperty();
    const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, property.id);
    const lead = JSON.stringify({ contact: 'Ada', referrer: 'https://chatgpt.com/' });
    const url = (to: RunningApp) => `${to.url}/api/webhooks/leads/${property.id}`;
    const accepted = await fetch(url(gateways[0]!), {
      method: 'POST',
      headers: signedLeadHeaders(secret, { eventId: 'real-1', body: lead }),
      body: lead,
    });
    expect(accepted.status).toBe(200);
    await expect.poll(() => db.lead.count({ where: { propertyId: property.id } }), { timeout: 15_000 }).toBe(1);
    for (let i = 0; i < 50; i++) {
      const headers = { ...signedLeadHeaders(secret, { eventId: `junk-${i}`, body: lead }) };
      headers['x-webhook-signature'] = '0'.repeat(64);
      const res = await fetch(url(gateways[i % 2]!), { method: 'POST', headers, body: lead });
      expect([401, 429]).toContain(res.status);
    }
    const rows = await settledRows(property.id, 'webhook', 51);
    expect(rows.filter((r) => r.authenticated).map((r) => [r.statusCode, r.eventId])).toEqual([[200, 'real-1']]);
    expect(rows.filter((r) => !r.authenticated).every((r) => r.requestBody === null && r.eventId === null)).toBe(true);
    expect((await webhookConnection(db, property)).status).toBe('verified');
  });

  it('[CRAWL-17] [CRAWL-32] a named batch still counts once after 60 junk posts to the property', async () => {
    const { property, token } = await newProperty();
    const key = randomUUID();
    const first = await postCrawl(gateways[0]!, property.id, token, crawlLine(property.domain), key);
    expect(first.status).toBe(202);
    for (let i = 0; i < 60; i++) await postCrawl(gateways[i % 2]!, property.id, 'vtc_junk', crawlLine(property.domain));
    const replay = await postCrawl(gateways[1]!, property.id, token, crawlLine(property.domain), key);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toStrictEqual({ duplicate: true, kept: 1, received: 1 });
  });
});

describe('issue 33, finding 4: a revoked key is refused at once on every replica', () => {
  it('[READ-12] revoke, then read at once through both read APIs: 401 INVALID_KEY on each', async () => {
    const { team } = await newProperty();
    const issued = generateApiKey();
    const key = await db.apiKey.create({
      data: { teamId: team.id, name: 'sec33', keyHash: issued.hash, prefix: issued.prefix, access: 'read' },
    });
    const read = (to: RunningApp) =>
      fetch(`${to.url}/v1/tasks`, { headers: { authorization: `Bearer ${issued.key}` } });
    // Both replicas have the key cached (for 5 s) before the revoke.
    for (const api of readApis) expect((await read(api)).status).toBe(200);
    // The operator's revoke, as a process of its own: it commits, then announces through Redis.
    const revoke = runScript('apps/ops/src/main.ts', ['key', 'revoke', '--id', key.id, '--json'], env);
    expect(await revoke.exited, revoke.stdout() + revoke.stderr()).toBe(0);
    const answers = await Promise.all(readApis.map(read));
    expect(answers).toHaveLength(2);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_KEY');
    }
  });
});
