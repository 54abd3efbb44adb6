import { generateApiKey } from '@vt/credentials';
import { startApp } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import {
  databaseUrlVia,
  expectStoredExactly,
  faultEnv,
  faultSuite,
  faultTraffic,
  queueLeftovers,
  queuesOf,
  SHORT,
  sleep,
  startCrawlWorker,
  startGateway,
  startLeadWorker,
  startRedis,
  startTcpProxy,
} from './fault-kit.ts';

// Redis killed with SIGKILL, and Postgres made unreachable, while real processes take sustained
// crawl and lead traffic. Requests during the outage get their documented error at once, never a
// hang; the apps recover by themselves; afterwards the stored counts equal what was acknowledged.

// Each test starts a Redis of its own: one is killed, the other's apps reach Postgres by a proxy.
const { db, track, onStop } = faultSuite({ ownRedis: false });

/** One timed request: its status, JSON body and how long the answer took. */
async function probe(url: string, init: RequestInit = {}) {
  const started = Date.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return {
    status: res.status,
    body: JSON.parse(text) as { reason?: string; hint?: string; checks?: Record<string, string> },
    ms: Date.now() - started,
  };
}

describe('dependencies down under load', () => {
  it('[CRAWL-26] [LEAD-13] Redis SIGKILLed and restarted: 503/500 with reason and hint during the outage, nothing lost, nothing twice', async () => {
    const redis = await startRedis();
    onStop(redis.stop);
    const env = faultEnv(redis.url);
    const { property, token, crawl, expected, send } = await faultTraffic(db, 'redis-kill', 31);
    const gateway = track(await startGateway(env));
    track(await startCrawlWorker(env));
    track(await startLeadWorker(env));

    const sending = send(() => [gateway]);
    await sleep(1500);
    await redis.kill();

    // During the outage: the documented answers, quickly.
    const crawlAnswer = await probe(`${gateway.url}/api/ingest/crawl/${property.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'during-outage' },
      body: crawl.batches[0]!.body,
    });
    expect(crawlAnswer).toMatchObject({ status: 503, body: { reason: 'queue_unavailable' } });
    expect(crawlAnswer.body.hint).toMatch(/same Idempotency-Key/);
    expect(crawlAnswer.ms).toBeLessThan(6000);
    const ready = await probe(`${gateway.url}/readyz`);
    expect(ready).toMatchObject({ status: 503, body: { checks: { redis: expect.not.stringMatching(/^ok$/) } } });
    expect(ready.ms).toBeLessThan(6000);

    await sleep(SHORT ? 2000 : 10_000);
    await redis.restart();
    const stats = await sending;
    expect(stats.wrong).toEqual([]);
    expect((stats.answers['503'] ?? 0) + (stats.answers['500'] ?? 0)).toBeGreaterThan(0);
    expect(stats.slowestMs).toBeLessThan(15_000);
    expect((await probe(`${gateway.url}/readyz`)).status).toBe(200);

    expect(await expectStoredExactly(db, property.id, expected, queuesOf(redis.url, env))).toEqual(expected);
    const left = await queueLeftovers(redis.url, env.QUEUE_PREFIX!);
    expect([left.crawl.failed, left.crawl.waiting, left.lead.failed, left.lead.waiting]).toEqual([0, 0, 0, 0]);
  }, 400_000);

  it('[READ-5] [CRAWL-26] Postgres unreachable: workers keep jobs queued and catch up, the read API answers 500 INTERNAL_ERROR, all recover', async () => {
    const redis = await startRedis();
    onStop(redis.stop);
    const pgPort = Number(new URL(process.env.DATABASE_URL!).port || 5432);
    const proxy = await startTcpProxy(pgPort);
    onStop(proxy.close);
    const env = faultEnv(redis.url, { DATABASE_URL: databaseUrlVia(proxy.port), DATABASE_CONNECT_TIMEOUT_MS: '2000' });
    const { property, token, crawl, expected, send } = await faultTraffic(db, 'pg-cut', 32);
    const issued = generateApiKey();
    await db.apiKey.create({
      data: {
        teamId: property.teamId,
        name: 'fault',
        keyHash: issued.hash,
        prefix: issued.prefix,
        allProperties: true,
      },
    });
    const gateway = track(await startGateway(env));
    track(await startCrawlWorker(env));
    track(await startLeadWorker(env));
    const readApi = track(
      await startApp('apps/read-api/src/main.ts', 'READ_API_PORT', { ...env, READ_CACHE_TTL_MS: '0' }),
    );
    const read = () => probe(`${readApi.url}/v1/properties`, { headers: { authorization: `Bearer ${issued.key}` } });
    expect((await read()).status).toBe(200);

    const sending = send(() => [gateway]);
    await sleep(1500);
    proxy.cut();
    const outageMs = SHORT ? 6000 : 30_000;
    const outageEnds = Date.now() + outageMs;
    await sleep(500);

    const during = await read();
    expect(during.status).toBe(500);
    expect(during.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    expect(during.ms).toBeLessThan(10_000);
    const crawlAnswer = await probe(`${gateway.url}/api/ingest/crawl/${property.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'pg-outage' },
      body: crawl.batches[0]!.body,
    });
    expect(crawlAnswer).toMatchObject({ status: 500, body: { reason: 'internal_error' } });
    expect(crawlAnswer.ms).toBeLessThan(10_000);

    await sleep(Math.max(0, outageEnds - Date.now()));
    proxy.restore();
    const stats = await sending;
    expect(stats.wrong).toEqual([]);
    expect(stats.slowestMs).toBeLessThan(15_000);

    expect(await expectStoredExactly(db, property.id, expected, queuesOf(redis.url, env), 180_000)).toEqual(expected);
    await expect.poll(async () => (await read()).status, { timeout: 20_000 }).toBe(200);
    const left = await queueLeftovers(redis.url, env.QUEUE_PREFIX!);
    expect([left.crawl.failed, left.crawl.waiting, left.lead.failed, left.lead.waiting]).toEqual([0, 0, 0, 0]);
  }, 400_000);
});
