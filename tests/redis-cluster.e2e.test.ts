import { deriveCrawlToken, deriveWebhookSecret, nameBasedUuid } from '@vt/credentials';
import { crawlBatchChunkId, crawlBatchJob, createQueue, shardOfProperty, shardPrefix } from '@vt/queue';
import { type Cluster, createProducerConnection, keySlot, taggedRedisKey } from '@vt/redis';
import {
  generateAccessLog,
  isolatedQueuePrefix,
  type RunningApp,
  type RunningRedisCluster,
  signedLeadHeaders,
  startApp,
  startRedisCluster,
  testDb,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The ingest path on a real Redis Cluster (three masters, three replicas, on loopback): a gateway
// with three queue shards in the replicated durability mode, a crawl worker and a lead worker,
// all real processes. Retrying senders (each batch and lead sent twice) must land exactly once.

const SHARDS = 3;
const PROPERTIES = 6;
const LEADS_PER_PROPERTY = 5;
const db = testDb();
const queuePrefix = isolatedQueuePrefix();
let cluster: RunningRedisCluster;
let client: Cluster;
const apps: RunningApp[] = [];
let gateway: RunningApp;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  client = createProducerConnection({
    redisUrl: testEnv.REDIS_URL,
    clusterNodes: cluster.seeds,
    onError: () => {},
  }) as Cluster;
  const env = {
    QUEUE_PREFIX: queuePrefix,
    REDIS_CLUSTER_NODES: cluster.nodesEnv,
    QUEUE_SHARDS: String(SHARDS),
    REDIS_DURABILITY: 'replicated',
  };
  apps.push(
    ...(await Promise.all([
      startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
      startApp('apps/crawl-worker/src/main.ts', 'CRAWL_WORKER_METRICS_PORT', env),
      startApp('apps/lead-worker/src/main.ts', 'LEAD_WORKER_METRICS_PORT', env),
    ])),
  );
  gateway = apps[0]!;
}, 90_000);

afterAll(async () => {
  for (const app of apps) app.child.kill('SIGTERM');
  await Promise.all(apps.map((app) => app.exited));
  client?.disconnect();
  await cluster?.stop();
});

async function newProperty() {
  const slug = uniqueSlug('cluster');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({
    data: { teamId: team.id, name: slug, domain: 'example.com', plan: 'growth', brandTerms: [slug] },
  });
}

async function postBatch(property: { id: string; crawlTokenVersion: number }, body: string) {
  const res = await fetch(`${gateway.url}/api/ingest/crawl/${property.id}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion)}`,
      'content-type': 'application/x-ndjson',
      'idempotency-key': 'batch-1',
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as { kept: number; reason?: string } };
}

async function postLead(propertyId: string, eventId: string) {
  const delivery = { eventId, body: JSON.stringify({ contact: eventId, referrer: 'https://chatgpt.com/' }) };
  const res = await fetch(`${gateway.url}/api/webhooks/leads/${propertyId}`, {
    method: 'POST',
    headers: signedLeadHeaders(deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, propertyId), delivery),
    body: delivery.body,
  });
  return res.status;
}

describe('ingest on a Redis Cluster with sharded queues', () => {
  it('batches and leads from retrying senders land exactly once, each property on its own shard', async () => {
    const properties = await Promise.all(Array.from({ length: PROPERTIES }, () => newProperty()));
    const kept = new Map<string, number>();
    for (const [i, property] of properties.entries()) {
      const body = generateAccessLog({ lines: 400, seed: 100 + i }).text;
      const first = await postBatch(property, body);
      const retry = await postBatch(property, body); // the sender did not hear the first answer
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      expect(retry).toMatchObject({ status: 200, body: { kept: first.body.kept } }); // the repeat's answer
      expect(first.body.kept).toBeGreaterThan(0);
      kept.set(property.id, first.body.kept);
      for (let n = 0; n < LEADS_PER_PROPERTY; n += 1) {
        expect(await postLead(property.id, `order-${n}`)).toBe(200);
        expect(await postLead(property.id, `order-${n}`)).toBe(200); // a duplicate delivery
      }
    }

    for (const property of properties) {
      const where = { propertyId: property.id };
      await expect.poll(() => db.crawlEvent.count({ where }), { timeout: 30_000 }).toBe(kept.get(property.id));
      await expect.poll(() => db.lead.count({ where }), { timeout: 30_000 }).toBe(LEADS_PER_PROPERTY);
    }

    // Each batch's job sits in its property's shard and in no other.
    const shardQueues = Array.from({ length: SHARDS }, (_, shard) =>
      createQueue(crawlBatchJob, client, shardPrefix(queuePrefix, shard, SHARDS)),
    );
    try {
      for (const property of properties) {
        const jobId = crawlBatchChunkId(nameBasedUuid(`crawl-batch:${property.id}:batch-1`), 0);
        const found = await Promise.all(shardQueues.map(async (queue) => (await queue.getJob(jobId)) !== undefined));
        expect(found.map((inShard, shard) => (inShard ? shard : -1)).filter((s) => s >= 0)).toEqual([
          shardOfProperty(property.id, SHARDS),
        ]);
      }
    } finally {
      await Promise.all(shardQueues.map((queue) => queue.close()));
    }
  }, 120_000);

  it('the shards and the per-property keys spread over the masters; our slots are Redis’s', async () => {
    // Redis's own answer: CLUSTER KEYSLOT, asked of a master.
    const keysOf = async (key: string) => Number(await client.nodes('master')[0]!.call('CLUSTER', 'KEYSLOT', key));
    const shardSlots = Array.from({ length: SHARDS }, (_, shard) => keySlot(shardPrefix(queuePrefix, shard, SHARDS)));
    for (const [shard, slot] of shardSlots.entries())
      expect(await keysOf(`${shardPrefix(queuePrefix, shard, SHARDS)}:x`)).toBe(slot);
    const shardMasters = new Set(await Promise.all(shardSlots.map((slot) => cluster.masterOf(slot))));
    expect(shardMasters.size).toBeGreaterThan(1);

    const ids = Array.from({ length: 20 }, (_, i) => nameBasedUuid(`property-${i}`));
    const leadKeys = ids.map((id) => taggedRedisKey(queuePrefix, id, 'lead-event', 'order-1'));
    const slots = await Promise.all(leadKeys.map((key) => keysOf(key)));
    expect(slots).toEqual(leadKeys.map(keySlot));
    expect(new Set(slots).size).toBe(ids.length);
    const masters = new Set(await Promise.all(slots.map((slot) => cluster.masterOf(slot))));
    expect(masters.size).toBe(3);
  });
});
