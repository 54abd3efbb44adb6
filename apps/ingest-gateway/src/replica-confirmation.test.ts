import { deriveWebhookSecret } from '@vt/credentials';
import { crawlBatchJob, createQueue, enqueue } from '@vt/queue';
import { closeRedisConnection, createProducerConnection, mastersShortOfReplicas } from '@vt/redis';
import { isolatedQueuePrefix, signedLeadHeaders, startRedisWithReplica, testEnv } from '@vt/test-support';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotReplicatedError, replicaConfirmation } from './replica-confirmation.ts';
import { createGatewayHarness } from './testing/gateway-harness.ts';

// REDIS_DURABILITY=replicated against real servers: the run's Redis has no replica (every WAIT
// counts 0), and a master with a replica of its own started here on loopback.

let withReplica: Awaited<ReturnType<typeof startRedisWithReplica>>;
beforeAll(async () => {
  withReplica = await startRedisWithReplica();
}, 30_000);
afterAll(() => withReplica?.stop());

const job = (i: number) => ({
  batchId: `00000000-0000-4000-8000-00000000000${i}`,
  propertyId: '00000000-0000-4000-8000-000000000001',
  receivedAt: new Date().toISOString(),
  events: [],
});

describe('replicated durability', () => {
  it('names, at start, the masters with fewer replicas than it waits for', async () => {
    const replicated = createProducerConnection({ redisUrl: withReplica.masterUrl, onError: () => {} });
    const alone = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    try {
      expect(await mastersShortOfReplicas(replicated, 1)).toEqual([]);
      expect(await mastersShortOfReplicas(replicated, 2)).toEqual([
        { master: expect.stringMatching(/^127\.0\.0\.1:\d+$/), replicas: 1 },
      ]);
      expect(await mastersShortOfReplicas(alone, 1)).toEqual([{ master: expect.stringMatching(/:\d+$/), replicas: 0 }]);
    } finally {
      await Promise.all([closeRedisConnection(replicated), closeRedisConnection(alone)]);
    }
  });

  it('resolves once a replica holds the enqueue, and refuses when no replica confirms in time', async () => {
    const replicated = createProducerConnection({ redisUrl: withReplica.masterUrl, onError: () => {} });
    const alone = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    const queues = [
      createQueue(crawlBatchJob, replicated, '{vt}'),
      createQueue(crawlBatchJob, alone, isolatedQueuePrefix()),
    ];
    try {
      await enqueue(queues[0]!, crawlBatchJob, job(1), 'a');
      await expect(
        replicaConfirmation(replicated, { replicas: 1, timeoutMs: 2000 })(queues[0]!),
      ).resolves.toBeUndefined();
      await enqueue(queues[1]!, crawlBatchJob, job(2), 'b');
      const started = Date.now();
      await expect(replicaConfirmation(alone, { replicas: 1, timeoutMs: 300 })(queues[1]!)).rejects.toBeInstanceOf(
        NotReplicatedError,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(250); // it waited, then gave up
      // Fast mode asks nothing of the replicas.
      await expect(replicaConfirmation(alone, undefined)(queues[1]!)).resolves.toBeUndefined();
    } finally {
      for (const queue of queues) await queue.obliterate({ force: true }).catch(() => {});
      await Promise.all(queues.map((queue) => queue.close()));
      await Promise.all([closeRedisConnection(replicated), closeRedisConnection(alone)]);
    }
  });

  it('an unconfirmed lead answers 503 not_replicated; its retry names the same job, held once', async () => {
    const h = await createGatewayHarness({ leads: { durability: { replicas: 1, timeoutMs: 200 } } });
    try {
      const { property } = await h.createProperty();
      const { deliver } = leadSender(h.app, property.id);
      const refused = await deliver('order-1');
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ reason: 'not_replicated' });
      expect(refused.body).not.toHaveProperty('stack');
      // The job may exist (it reached the master): the lead id derives from the x-webhook-id, so
      // the retry names the same job and BullMQ holds it once.
      const retried = await deliver('order-1');
      expect(retried.status).toBe(503);
      expect((await h.leadJobs()).filter((j) => j.propertyId === property.id)).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});

function leadSender(app: Express, propertyId: string) {
  const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, propertyId);
  return {
    deliver: async (eventId: string) => {
      const body = JSON.stringify({ contact: eventId, referrer: 'https://chatgpt.com/' });
      let req = request(app).post(`/api/webhooks/leads/${propertyId}`);
      for (const [name, value] of Object.entries(signedLeadHeaders(secret, { eventId, body })))
        req = req.set(name, value);
      return req.send(body);
    },
  };
}
