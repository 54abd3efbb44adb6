import { type RunningApp, testDb } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crawlBatches,
  expectedFigures,
  expectStoredExactly,
  faultEnv,
  faultProperty,
  generateLeadTraffic,
  kill,
  queueLeftovers,
  SHORT,
  sendUntilAcknowledged,
  sleep,
  startCrawlWorker,
  startGateway,
  startLeadWorker,
  startRedis,
} from './fault-kit.ts';

// Real processes killed under load: the crawl worker and the lead worker with SIGKILL mid-job,
// again and again, and a gateway with SIGKILL while senders post to it. The counts must equal what
// was sent, exactly: nothing lost, nothing counted twice, no job left stuck.

const db = testDb();
let redis: Awaited<ReturnType<typeof startRedis>>;
let env: Record<string, string>;
const apps: RunningApp[] = [];
const track = (app: RunningApp) => {
  apps.push(app);
  return app;
};

beforeAll(async () => {
  redis = await startRedis();
  env = faultEnv(redis.url);
}, 60_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => kill(app)));
  await redis?.stop();
});

describe('workers and gateways killed under load', () => {
  it('[CRAWL-31] [LEAD-8] crawl and lead workers SIGKILLed mid-job 10 times each: counts equal the traffic, no job stuck', async () => {
    const { property, token, secret } = await faultProperty(db, 'kill-workers');
    const crawl = crawlBatches(SHORT ? 300 : 1200, 'workers');
    const leads = generateLeadTraffic({ count: SHORT ? 300 : 1200, seed: 21 });
    const gateway = track(await startGateway(env));
    let crawlWorker = track(await startCrawlWorker(env));
    let leadWorker = track(await startLeadWorker(env));

    const sending = sendUntilAcknowledged({
      gateways: () => [gateway],
      propertyId: property.id,
      token,
      secret,
      batches: crawl.batches,
      leads: leads.deliveries,
      concurrency: 8,
      paceMs: SHORT ? 10 : 20,
      deadlineMs: 300_000,
    });
    // Kill each worker while it holds jobs: wait until it has applied something, then SIGKILL it
    // and start a new one (BullMQ hands the killed worker's jobs back after its lock lapses).
    let kills = 0;
    for (let round = 0; round < 10; round++) {
      await sleep(150 + ((round * 97) % 300));
      await Promise.all([kill(crawlWorker), kill(leadWorker)]);
      kills += 2;
      [crawlWorker, leadWorker] = await Promise.all([startCrawlWorker(env), startLeadWorker(env)]);
      track(crawlWorker);
      track(leadWorker);
    }
    const stats = await sending;
    expect(kills).toBe(20);
    expect(stats.wrong).toEqual([]);
    expect(stats.acknowledged).toBe(crawl.batches.length + leads.deliveries.length);

    const expected = expectedFigures(crawl, leads);
    expect(await expectStoredExactly(db, property.id, expected)).toEqual(expected);
    const left = await queueLeftovers(redis.url, env.QUEUE_PREFIX!);
    expect(left).toEqual({
      crawl: { waiting: 0, active: 0, delayed: 0, failed: 0, prioritized: 0, 'waiting-children': 0 },
      lead: { waiting: 0, active: 0, delayed: 0, failed: 0, prioritized: 0, 'waiting-children': 0 },
    });
  }, 400_000);

  it('[CRAWL-17] a gateway SIGKILLed under load: what was answered 2xx is stored once, what was not is retried and stored once', async () => {
    const { property, token, secret } = await faultProperty(db, 'kill-gateway');
    const crawl = crawlBatches(SHORT ? 300 : 1200, 'gateway');
    const leads = generateLeadTraffic({ count: SHORT ? 300 : 1200, seed: 22 });
    const gateways = [track(await startGateway(env)), track(await startGateway(env))];
    track(await startCrawlWorker(env));
    track(await startLeadWorker(env));

    const sending = sendUntilAcknowledged({
      gateways: () => gateways,
      propertyId: property.id,
      token,
      secret,
      batches: crawl.batches,
      leads: leads.deliveries,
      concurrency: 8,
      paceMs: SHORT ? 10 : 20,
      deadlineMs: 300_000,
    });
    // Kill one replica at a time while the other serves; the senders retry what broke on it.
    for (let round = 0; round < (SHORT ? 3 : 8); round++) {
      await sleep(400);
      const victim = round % 2;
      await kill(gateways[victim]!);
      gateways[victim] = track(await startGateway(env));
    }
    const stats = await sending;
    expect(stats.wrong).toEqual([]);
    // The kills broke requests in flight: those were retried, under the same key or id.
    expect(stats.answers.network ?? 0).toBeGreaterThan(0);

    const expected = expectedFigures(crawl, leads);
    expect(await expectStoredExactly(db, property.id, expected)).toEqual(expected);
  }, 400_000);
});
