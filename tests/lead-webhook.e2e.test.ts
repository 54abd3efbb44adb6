import { deriveWebhookSecret } from '@vt/credentials';
import { webhookConnection } from '@vt/properties';
import {
  generateLeadTraffic,
  isolatedQueuePrefix,
  type RunningApp,
  signedLeadHeaders,
  startApp,
  testDb,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The whole lead path with real processes: two gateways → Redis (BullMQ) → lead worker → Postgres,
// fed by the project's seeded lead traffic and compared with its ground truth.

const db = testDb();
const queuePrefix = isolatedQueuePrefix();
const env = { QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'debug' };
const apps: RunningApp[] = [];
let gateways: RunningApp[];

beforeAll(async () => {
  gateways = await Promise.all([
    startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
    startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
  ]);
  apps.push(...gateways);
}, 60_000);

afterAll(async () => {
  for (const app of apps) app.child.kill('SIGTERM');
  await Promise.all(apps.map((app) => app.exited));
});

async function newProperty() {
  const slug = uniqueSlug('lead-e2e');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({
    data: { teamId: team.id, name: slug, domain: 'shop.example', plan: 'growth', brandTerms: [slug] },
  });
}

let worker: RunningApp | undefined;
async function leadWorker() {
  worker ??= await startApp('apps/lead-worker/src/main.ts', 'LEAD_WORKER_METRICS_PORT', env);
  if (!apps.includes(worker)) apps.push(worker);
  return worker;
}

function deliver(to: RunningApp, propertyId: string, delivery: { eventId: string; body: string }) {
  const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, propertyId);
  return fetch(`${to.url}/api/webhooks/leads/${propertyId}`, {
    method: 'POST',
    headers: signedLeadHeaders(secret, delivery),
    body: delivery.body,
  });
}

describe('lead webhook end to end', () => {
  it('[LEAD-16] the webhook reads Verified only once the lead worker has stored the accepted lead', async () => {
    const property = await newProperty();
    const status = () => webhookConnection(db, property);
    const answer = await deliver(gateways[0]!, property.id, {
      eventId: 'evt-first',
      body: JSON.stringify({ contact: 'Ada', referrer: 'https://chatgpt.com/' }),
    });
    expect(answer.status).toBe(200);
    const { leadId } = (await answer.json()) as { leadId: string };
    // The attempt is logged (the writer gathers rows for ~100 ms), its lead is queued, not stored.
    await expect.poll(async () => (await status()).lastAttemptAt, { timeout: 10_000 }).not.toBeNull();
    expect(await status()).toMatchObject({ status: 'not_verified', lastAcceptedAt: null });
    expect(await db.lead.count({ where: { propertyId: property.id } })).toBe(0);

    await leadWorker();
    await expect.poll(async () => (await status()).status, { timeout: 20_000 }).toBe('verified');
    expect(await db.lead.findUnique({ where: { id: leadId } })).toMatchObject({ platform: 'chatgpt' });
  });

  it('[LEAD-8] [LEAD-10] [LEAD-11] stores and attributes what the traffic says, each lead once, across two gateways', async () => {
    await leadWorker();
    const property = await newProperty();
    const traffic = generateLeadTraffic({ count: 300, seed: 11 });
    expect(traffic.truth.repeats).toBeGreaterThan(10);
    expect(Object.keys(traffic.truth.byPlatform).sort()).toEqual([
      'chatgpt',
      'claude',
      'copilot',
      'gemini',
      'perplexity',
    ]);

    // Sixteen senders at once, alternating gateways: a repeat may overlap its first delivery.
    const queue = traffic.deliveries.map((delivery, i) => ({ delivery, i }));
    const answers: { platform: string; matched: boolean; warnings: string[]; leadId: string }[] = [];
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const res = await deliver(gateways[next.i % 2]!, property.id, next.delivery);
          statuses.push(res.status);
          const body = (await res.json()) as (typeof answers)[number];
          answers[next.i] = body;
          if (!next.delivery.repeat) {
            expect(body.platform, next.delivery.body).toBe(next.delivery.platform ?? 'unclassified');
            expect(body.matched).toBe(next.delivery.platform !== null);
          }
        }
      }),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Every delivery of one id names one lead; the second and later ones are duplicate_event.
    const leadOf = new Map<string, string>();
    traffic.deliveries.forEach((d, i) => {
      const id = answers[i]!.leadId;
      expect(leadOf.get(d.eventId) ?? id).toBe(id);
      leadOf.set(d.eventId, id);
    });
    const duplicates = answers.filter((a) => a.warnings.includes('duplicate_event')).length;
    expect(duplicates).toBe(traffic.truth.repeats);

    await expect
      .poll(() => db.lead.count({ where: { propertyId: property.id } }), { timeout: 30_000 })
      .toBe(traffic.truth.leads);
    const stored = await db.lead.groupBy({ by: ['platform'], where: { propertyId: property.id }, _count: true });
    const storedByPlatform = Object.fromEntries(stored.filter((r) => r.platform).map((r) => [r.platform, r._count]));
    expect(storedByPlatform).toEqual(traffic.truth.byPlatform);
    expect(stored.find((r) => r.platform === null)?._count ?? 0).toBe(traffic.truth.unattributed);

    const counted = await db.aiLeadDailyCount.groupBy({
      by: ['platform'],
      where: { propertyId: property.id },
      _sum: { leads: true },
    });
    expect(Object.fromEntries(counted.map((r) => [r.platform, r._sum.leads]))).toEqual(traffic.truth.byPlatform);
  });
});
