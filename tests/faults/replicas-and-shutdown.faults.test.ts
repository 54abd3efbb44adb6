import { deriveCrawlToken, generateApiKey } from '@vt/credentials';
import { type RunningApp, startApp, testEnv } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import {
  crawlBatches,
  expectStoredExactly,
  faultProperty,
  faultSuite,
  faultTraffic,
  queuesOf,
  SHORT,
  sleep,
  startCrawlWorker,
  startGateway,
  startLeadWorker,
} from './fault-kit.ts';

// Graceful shutdown under load, and what must hold across replicas: two gateways, two read APIs
// and two workers of each kind, each a real process.

const SHUTDOWN_TIMEOUT_MS = 10_000;
const suite = faultSuite({ env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) } });
const { db, track } = suite;

/** Sends SIGTERM; resolves with the exit code and how long the process took to exit. */
async function terminate(app: RunningApp) {
  const started = Date.now();
  app.child.kill('SIGTERM');
  const code = await app.exited;
  return { code, ms: Date.now() - started };
}

describe('SIGTERM under load', () => {
  it('[CRAWL-31] a gateway and a worker of each kind stopped with SIGTERM: in-flight work completes, exit within the bound, nothing lost', async () => {
    const traffic = await faultTraffic(db, 'sigterm', 41);
    const { property, token, crawl } = traffic;
    const gateways = [track(await startGateway(suite.env)), track(await startGateway(suite.env))];
    let crawlWorker = track(await startCrawlWorker(suite.env));
    let leadWorker = track(await startLeadWorker(suite.env));

    const sending = traffic.send(() => gateways);
    await sleep(1000);

    // An upload in flight when the signal comes: its body arrives over a second, after SIGTERM.
    const slow = crawl.batches[0]!.body;
    const upload = fetch(`${gateways[0]!.url}/api/ingest/crawl/${property.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body: new ReadableStream({
        async start(controller) {
          const bytes = new TextEncoder().encode(slow);
          const half = Math.floor(bytes.length / 2);
          controller.enqueue(bytes.slice(0, half));
          await sleep(1000);
          controller.enqueue(bytes.slice(half));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    await sleep(300);
    const stopping = terminate(gateways[0]!);
    const answer = await upload;
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ kept: crawl.batches[0]!.gptHits, received: 20 + crawl.batches[0]!.gptHits });
    const gatewayExit = await stopping;
    expect(gatewayExit.code, gateways[0]!.stdout().split('\n').slice(-6).join('\n')).toBe(0);
    expect(gatewayExit.ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    gateways[0] = track(await startGateway(suite.env));

    // Workers stopped while they hold jobs: those finish (or go back to the queue), the exit is clean.
    for (let round = 0; round < (SHORT ? 2 : 5); round++) {
      await sleep(500);
      const [c, l] = await Promise.all([terminate(crawlWorker), terminate(leadWorker)]);
      expect([c.code, l.code]).toEqual([0, 0]);
      expect(Math.max(c.ms, l.ms)).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
      [crawlWorker, leadWorker] = await Promise.all([startCrawlWorker(suite.env), startLeadWorker(suite.env)]);
      track(crawlWorker);
      track(leadWorker);
    }
    const stats = await sending;
    expect(stats.wrong).toEqual([]);

    // The unnamed slow upload is one more batch: its hits count on top of the traffic's.
    const expected = { ...traffic.expected, gptHits: traffic.expected.gptHits + crawl.batches[0]!.gptHits };
    expect(await expectStoredExactly(db, property.id, expected, queuesOf(suite.redis.url, suite.env))).toEqual(
      expected,
    );
  }, 400_000);
});

describe('two replicas of everything', () => {
  it('[CRAWL-3] [CRAWL-17] [CRAWL-28] token rotation, plan changes, named batches and the 50-row log hold across two gateways at once', async () => {
    const { property, token } = await faultProperty(db, 'replicas');
    const gateways = [track(await startGateway(suite.env)), track(await startGateway(suite.env))];
    track(await startCrawlWorker(suite.env));
    track(await startCrawlWorker(suite.env));
    const batch = crawlBatches(1, 'replicas').batches[0]!;
    const post = (gateway: RunningApp, bearer: string, key?: string) =>
      fetch(`${gateway.url}/api/ingest/crawl/${property.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, ...(key ? { 'idempotency-key': key } : {}) },
        body: batch.body,
      });
    for (const g of gateways) expect((await post(g, token)).status).toBe(202);

    // Rotation: the old token fails at once on both replicas, the new one works on both.
    const rotated = await db.property.update({
      where: { id: property.id },
      data: { crawlTokenVersion: { increment: 1 } },
    });
    const newToken = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, rotated.crawlTokenVersion);
    for (const g of gateways) {
      expect((await post(g, token)).status).toBe(401);
      expect((await post(g, newToken)).status).toBe(202);
    }
    // A plan change: free is refused at once on both, and paid again accepted.
    await db.property.update({ where: { id: property.id }, data: { plan: 'free' } });
    for (const g of gateways) expect((await post(g, newToken)).status).toBe(402);
    await db.property.update({ where: { id: property.id }, data: { plan: 'growth' } });

    // Overlapping identical attempts spread over both replicas: one 202, the rest duplicates.
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(gateways[i % 2]!, newToken, 'replicated-batch')),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    // The delivery log keeps the newest 50 attempts per property, whichever replicas wrote them: a
    // sender left on the rotated token is the property's own, each attempt a row (a stranger's wrong
    // token is only counted into one summary row, which neither counts toward the 50 nor pushes out).
    const before = await db.deliveryLogEntry.count({ where: { propertyId: property.id, channel: 'crawl' } });
    expect(before).toBeLessThan(50);
    await Promise.all(Array.from({ length: 60 }, (_, i) => post(gateways[i % 2]!, token)));
    await expect
      .poll(() => db.deliveryLogEntry.count({ where: { propertyId: property.id, channel: 'crawl' } }), {
        timeout: 10_000,
      })
      .toBe(50);
    await sleep(500);
    const kept = await db.deliveryLogEntry.findMany({ where: { propertyId: property.id, channel: 'crawl' } });
    expect(kept).toHaveLength(50);
    expect(kept.every((row) => row.statusCode === 401)).toBe(true);

    // Two unnamed on each replica before and after rotation, plus the named one once.
    const expected = { gptHits: 5 * batch.gptHits, leads: 0, leadsByPlatform: {} };
    expect(await expectStoredExactly(db, property.id, expected, queuesOf(suite.redis.url, suite.env), 30_000)).toEqual(
      expected,
    );
  }, 120_000);

  it('[READ-12] [READ-16] key revocation and the rate limit hold across two read API replicas', async () => {
    const { property } = await faultProperty(db, 'read-replicas');
    const issued = generateApiKey();
    const key = await db.apiKey.create({
      data: {
        teamId: property.teamId,
        name: 'replicas',
        keyHash: issued.hash,
        prefix: issued.prefix,
        allProperties: true,
      },
    });
    const readEnv = { ...suite.env, RATE_LIMIT_PER_MINUTE: '12', API_KEY_CACHE_TTL_MS: '500', READ_CACHE_TTL_MS: '0' };
    const replicas = await Promise.all([
      startApp('apps/read-api/src/main.ts', 'READ_API_PORT', readEnv, 60_000),
      startApp('apps/read-api/src/main.ts', 'READ_API_PORT', readEnv, 60_000),
    ]);
    replicas.forEach(track);
    const read = (replica: RunningApp) =>
      fetch(`${replica.url}/v1/properties`, { headers: { authorization: `Bearer ${issued.key}` } });

    // The limit is one budget per key, whichever replica answers (a fixed one-minute window:
    // start early in a minute so the whole burst falls in one).
    const second = new Date().getUTCSeconds();
    if (second > 45) await sleep((61 - second) * 1000);
    const statuses = [];
    for (let i = 0; i < 16; i++) statuses.push((await read(replicas[i % 2]!)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);

    // Revoked: both replicas refuse it once their short key cache lapses.
    await db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await sleep(600);
    for (const replica of replicas) {
      const res = await read(replica);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'INVALID_KEY' } });
    }
  }, 120_000);
});
