import { nameBasedUuid } from '@vt/credentials';
import type { RunningApp } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import {
  crawlBatches,
  expectStoredExactly,
  faultProperty,
  faultSuite,
  faultTraffic,
  kill,
  queueLeftovers,
  queuesOf,
  SHORT,
  sleep,
  startCrawlWorker,
  startGateway,
  startLeadWorker,
  startTcpProxy,
} from './fault-kit.ts';

// Real processes killed under load: the crawl worker and the lead worker with SIGKILL mid-job,
// again and again, and a gateway with SIGKILL while senders post to it. The counts must equal what
// was sent, exactly: nothing lost, nothing counted twice, no job left stuck.

const suite = faultSuite();
const { db, track } = suite;
/** Rounds of killing both workers mid-job; the short profile (`pnpm test`) does half. */
const KILL_ROUNDS = SHORT ? 5 : 10;

describe('workers and gateways killed under load', () => {
  it('[CRAWL-31] [LEAD-8] crawl and lead workers SIGKILLed mid-job 10 times each (5 in the short profile): counts equal the traffic, no job stuck', async () => {
    const { crawl, leads, expected, property, send } = await faultTraffic(db, 'kill-workers', 21);
    const gateway = track(await startGateway(suite.env));
    let crawlWorker = track(await startCrawlWorker(suite.env));
    let leadWorker = track(await startLeadWorker(suite.env));

    const sending = send(() => [gateway]);
    // Kill each worker while it holds jobs: wait until it has applied something, then SIGKILL it
    // and start a new one (BullMQ hands the killed worker's jobs back after its lock lapses).
    let kills = 0;
    let midJob = 0;
    for (let round = 0; round < KILL_ROUNDS; round++) {
      await sleep(150 + ((round * 97) % 300));
      // Mid-job: how often a worker held a job when it was killed (jobs take milliseconds).
      const held = await queueLeftovers(suite.redis.url, suite.env.QUEUE_PREFIX!);
      if ((held.crawl.active ?? 0) + (held.lead.active ?? 0) > 0) midJob++;
      await Promise.all([kill(crawlWorker), kill(leadWorker)]);
      kills += 2;
      [crawlWorker, leadWorker] = await Promise.all([startCrawlWorker(suite.env), startLeadWorker(suite.env)]);
      track(crawlWorker);
      track(leadWorker);
    }
    const stats = await sending;
    expect(kills).toBe(2 * KILL_ROUNDS);
    console.log(`worker kills: ${kills}, with jobs active: ${midJob}`);
    expect(midJob).toBeGreaterThanOrEqual(KILL_ROUNDS === 10 ? 3 : 2);
    expect(stats.wrong).toEqual([]);
    expect(stats.acknowledged).toBe(crawl.batches.length + leads.deliveries.length);

    expect(await expectStoredExactly(db, property.id, expected, queuesOf(suite.redis.url, suite.env))).toEqual(
      expected,
    );
    const left = await queueLeftovers(suite.redis.url, suite.env.QUEUE_PREFIX!);
    expect(left).toEqual({
      crawl: { waiting: 0, active: 0, delayed: 0, failed: 0, prioritized: 0, 'waiting-children': 0 },
      lead: { waiting: 0, active: 0, delayed: 0, failed: 0, prioritized: 0, 'waiting-children': 0 },
    });
  }, 400_000);

  it('[CRAWL-17] a gateway SIGKILLed under load: what was answered 2xx is stored once, what was not is retried and stored once', async () => {
    const { property, expected, send } = await faultTraffic(db, 'kill-gateway', 22);
    const gateways = [track(await startGateway(suite.env)), track(await startGateway(suite.env))];
    track(await startCrawlWorker(suite.env));
    track(await startLeadWorker(suite.env));

    const sending = send(() => gateways);
    // Kill one replica at a time while the other serves; the senders retry what broke on it.
    for (let round = 0; round < (SHORT ? 3 : 8); round++) {
      await sleep(400);
      const victim = round % 2;
      await kill(gateways[victim]!);
      gateways[victim] = track(await startGateway(suite.env));
    }
    const stats = await sending;
    expect(stats.wrong).toEqual([]);
    // The kills broke requests in flight: those were retried, under the same key or id.
    expect(stats.answers.network ?? 0).toBeGreaterThan(0);

    expect(await expectStoredExactly(db, property.id, expected, queuesOf(suite.redis.url, suite.env))).toEqual(
      expected,
    );
  }, 400_000);

  it('[CRAWL-17] a gateway SIGKILLed between enqueue and answer: the retry on another gateway is counted once', async () => {
    const { property, token } = await faultProperty(db, 'kill-between');
    const batch = crawlBatches(1, 'between').batches[0]!;
    const redisPort = Number(new URL(suite.redis.url).port);
    // Gateway A talks to Redis through a proxy that freezes right after the batch's job is added.
    const proxy = await startTcpProxy(redisPort);
    const viaProxy = { ...suite.env, REDIS_URL: `redis://127.0.0.1:${proxy.port}` };
    const gatewayA = track(await startGateway(viaProxy));
    const gatewayB = track(await startGateway(suite.env));
    track(await startCrawlWorker(suite.env));
    const jobId = nameBasedUuid(`crawl-batch:${property.id}:${batch.key}`);
    // The first chunk naming the batch is the claim of its key, the second the job's add.
    let seen = 0;
    proxy.freezeAfter((chunk) => chunk.includes(jobId) && ++seen === 2);

    const post = (to: RunningApp) =>
      fetch(`${to.url}/api/ingest/crawl/${property.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': batch.key },
        body: batch.body,
      });
    const first = post(gatewayA).then(
      (res) => res.status,
      () => 'network' as const,
    );
    await expect.poll(() => proxy.isFrozen(), { timeout: 10_000 }).toBe(true);
    await sleep(300); // the add's answer is back; the claim's settle is held at the proxy
    await kill(gatewayA);
    expect(await first).toBe('network');

    // The sender retries on B: first told the batch is in progress (the dead claim holds the key
    // until it lapses), then, once it has, accepted; the job id is the same, so it counts once.
    const answers: number[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await post(gatewayB);
      answers.push(res.status);
      if (res.status === 202 || res.status === 200 || Date.now() > deadline) break;
      expect(res.status).toBe(503);
      expect(((await res.json()) as { reason: string }).reason).toBe('batch_in_progress');
      await sleep(Number(res.headers.get('retry-after')) * 1000);
    }
    expect(answers.at(-1)).toBe(202);
    expect(answers.slice(0, -1).every((s) => s === 503)).toBe(true);
    const expected = { gptHits: batch.gptHits, leads: 0, leadsByPlatform: {} };
    expect(await expectStoredExactly(db, property.id, expected, queuesOf(suite.redis.url, suite.env), 30_000)).toEqual(
      expected,
    );
    expect((await post(gatewayB)).status).toBe(200);
    await proxy.close();
  }, 120_000);
});
