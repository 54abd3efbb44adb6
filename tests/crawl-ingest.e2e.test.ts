import { gzipSync } from 'node:zlib';
import { deriveCrawlToken, nameBasedUuid } from '@vt/credentials';
import { CRAWL_BATCH_JOB_MAX_EVENTS, crawlBatchChunkId } from '@vt/queue';
import {
  databaseText,
  generateAccessLog,
  isolatedQueuePrefix,
  type RunningApp,
  redisText,
  scratchDatabase,
  startApp,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The whole crawl path with real processes: gateway → Redis (BullMQ) → crawl worker → Postgres,
// fed by the shared generator, compared with its ground truth to the line.

// A database of its own: the fixture IP ranges it stores are global to a database, and the IP scan
// below reads every row of every table, which must be this file's rows only.
const scratch = await scratchDatabase('crawl_e2e');
const db = scratch.db;
const queuePrefix = isolatedQueuePrefix();
const log = generateAccessLog({ lines: 30_000, seed: 5 });
const sentIps = [...new Set([...log.text.matchAll(/"ip":"([^"]+)"/g)].map((m) => m[1]!))];
let gateway: RunningApp;
// A second replica: named batches must hold across gateways.
let gateway2: RunningApp;
let worker: RunningApp;
let propertyId: string;
let token: string;

/** A team of its own and a starter property on `domain`, with the property's crawl token. */
async function propertyWithToken(label: string, domain: string) {
  const slug = uniqueSlug(label);
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: slug, domain, plan: 'starter', brandTerms: [slug] },
  });
  return { property, token: deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion) };
}

beforeAll(async () => {
  const created = await propertyWithToken('e2e', 'example.com');
  propertyId = created.property.id;
  token = created.token;
  for (const set of log.ranges) {
    await db.crawlerIpRangeSet.upsert({
      where: { operator: set.operator },
      update: { prefixes: set.prefixes, takenAt: new Date(), source: 'e2e fixture' },
      create: { operator: set.operator, prefixes: set.prefixes, takenAt: new Date(), source: 'e2e fixture' },
    });
  }
  const env = { QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'debug', DATABASE_URL: scratch.url };
  [gateway, gateway2, worker] = await Promise.all([
    startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
    startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
    startApp('apps/crawl-worker/src/main.ts', 'CRAWL_WORKER_METRICS_PORT', env),
  ]);
}, 60_000);

afterAll(async () => {
  const apps = [gateway, gateway2, worker].filter(Boolean);
  for (const app of apps) app.child.kill('SIGTERM');
  await Promise.all(apps.map((app) => app.exited));
  await scratch.drop();
});

async function post(body: Buffer, headers: Record<string, string>) {
  const res = await fetch(`${gateway.url}/api/ingest/crawl/${propertyId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as { kept: number; received: number } };
}

describe('crawl ingest end to end', () => {
  it('[CRAWL-31] stores what the generator says, to the line: crawler activity, verification, pages and AI referrals', async () => {
    // The same traffic in three batches, three ways: gzip with its header, gzip without, plain.
    const lines = log.text.split('\n').filter(Boolean);
    const third = Math.ceil(lines.length / 3);
    const parts = [0, 1, 2].map((i) => `${lines.slice(i * third, (i + 1) * third).join('\n')}\n`);
    const answers = [
      await post(gzipSync(parts[0]!), { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' }),
      await post(gzipSync(parts[1]!), { 'content-type': 'application/x-ndjson' }),
      await post(Buffer.from(parts[2]!), {}),
    ];
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(answers.reduce((n, a) => n + a.body.received, 0)).toBe(log.truth.received);
    expect(answers.reduce((n, a) => n + a.body.kept, 0)).toBe(log.truth.kept);

    // The worker stores asynchronously: wait for every kept event.
    const deadline = Date.now() + 20_000;
    while ((await db.crawlEvent.count({ where: { propertyId } })) < log.truth.kept && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await db.crawlEvent.count({ where: { propertyId } })).toBe(log.truth.kept);

    const daily = await db.crawlerDailyCount.findMany({ where: { propertyId } });
    const hits: Record<string, number> = {};
    const verified: Record<string, number> = {};
    for (const row of daily) {
      hits[row.crawler] = (hits[row.crawler] ?? 0) + row.hits;
      if (row.verification === 'verified') verified[row.crawler] = (verified[row.crawler] ?? 0) + row.hits;
    }
    expect(hits).toEqual(log.truth.crawlerHits);
    expect(verified).toEqual(log.truth.verifiedHits);
    expect(daily.every((row) => row.day.toISOString() === '2026-11-20T00:00:00.000Z')).toBe(true);

    const referrals = await db.aiReferralDailyCount.groupBy({
      by: ['platform'],
      where: { propertyId },
      _sum: { visits: true },
    });
    expect(Object.fromEntries(referrals.map((r) => [r.platform, r._sum.visits]))).toEqual(log.truth.referrals);

    const pages = await db.crawledPage.aggregate({ where: { propertyId }, _sum: { hits: true } });
    const crawlerTotal = Object.values(log.truth.crawlerHits).reduce((a, b) => a + b, 0);
    expect(pages._sum.hits).toBe(crawlerTotal);
    const paths = await db.crawledPage.findMany({ where: { propertyId }, select: { path: true } });
    expect(paths.some((p) => p.path.includes('?'))).toBe(false);

    // The gateway's delivery-log writer batches its rows too: wait for the three attempts.
    const crawlRows = () => db.deliveryLogEntry.findMany({ where: { propertyId, channel: 'crawl' } });
    while ((await crawlRows()).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const rows = await crawlRows();
    expect(rows.map((r) => r.statusCode)).toEqual([202, 202, 202]);
    const hostNoteTotal = rows.reduce((n, r) => n + ((r.hostNote as { count: number } | null)?.count ?? 0), 0);
    expect(hostNoteTotal).toBe(log.truth.hostNotMatched);
  });

  it('[CRAWL-17] [CRAWL-32] a named batch sent 12 times at once to two gateways is accepted once and counted once', async () => {
    const { property: named, token: namedToken } = await propertyWithToken('named', 'named.example');
    const at = new Date().toISOString();
    const line = (i: number, userAgent: string) =>
      JSON.stringify({ timestamp: at, host: 'named.example', path: `/p/${i}`, userAgent, statusCode: 200 });
    const body = gzipSync(
      Array.from({ length: 200 }, (_, i) =>
        line(
          i,
          i % 2 === 0
            ? 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)'
            : 'Mozilla/5.0 Firefox/133.0',
        ),
      ).join('\n'),
    );
    const send = (to: RunningApp) =>
      fetch(`${to.url}/api/ingest/crawl/${named.id}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${namedToken}`,
          'content-type': 'application/x-ndjson',
          'content-encoding': 'gzip',
          'idempotency-key': 'shipper-batch-0001',
        },
        body,
      });
    const hits = async () =>
      (await db.crawlerDailyCount.aggregate({ where: { propertyId: named.id }, _sum: { hits: true } }))._sum.hits ?? 0;

    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i % 2 ? gateway2 : gateway)));
    // One attempt was first; every other one waited for it and repeats its figures.
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([202, ...Array(11).fill(200)].sort());
    for (const answer of answers) {
      const body = await answer.json();
      expect(body).toEqual(
        answer.status === 202 ? { kept: 100, received: 200 } : { duplicate: true, kept: 100, received: 200 },
      );
    }
    await expect.poll(hits, { timeout: 20_000 }).toBe(100);
    // A later retry of the same batch, and the worker's time to apply anything it was given.
    expect((await send(gateway2)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await hits()).toBe(100);
  });

  it('[CRAWL-17] [CRAWL-31] a named batch larger than one job is stored once, every event once, and its repeat adds nothing', async () => {
    const { property, token: propertyToken } = await propertyWithToken('chunked', 'chunked.example');
    const kept = 2 * CRAWL_BATCH_JOB_MAX_EVENTS + 1; // three jobs
    const at = '2026-03-02T10:00:00Z';
    const lines: string[] = [];
    for (let i = 0; i < kept; i++) {
      const visit = { timestamp: at, host: 'chunked.example', path: `/p/${i % 50}`, statusCode: 200 };
      lines.push(
        JSON.stringify({ ...visit, userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)' }),
      );
      if (i % 100 === 0) lines.push(JSON.stringify({ ...visit, userAgent: 'Mozilla/5.0 Firefox/133.0' }));
    }
    const body = gzipSync(lines.join('\n'));
    const key = 'shipper-large-batch-0001';
    const send = () =>
      fetch(`${gateway.url}/api/ingest/crawl/${property.id}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${propertyToken}`,
          'content-type': 'application/x-ndjson',
          'idempotency-key': key,
        },
        body,
      });
    const where = { propertyId: property.id };
    const hits = async () => (await db.crawlerDailyCount.aggregate({ where, _sum: { hits: true } }))._sum.hits ?? 0;

    const first = await send();
    expect(first.status).toBe(202);
    expect(await first.json()).toStrictEqual({ kept, received: lines.length });
    await expect.poll(hits, { timeout: 20_000 }).toBe(kept);
    expect(await db.crawlEvent.count({ where })).toBe(kept);
    const pages = await db.crawledPage.findMany({ where });
    expect(pages).toHaveLength(50);
    expect(pages.reduce((sum, page) => sum + page.hits, 0)).toBe(kept);
    const batchId = nameBasedUuid(`crawl-batch:${property.id}:${key}`);
    const markers = await db.processedJob.findMany({ where: { jobKey: { startsWith: `crawl-batch:${batchId}` } } });
    expect(markers.map((m) => m.jobKey).sort()).toEqual(
      [0, 1, 2].map((chunk) => `crawl-batch:${crawlBatchChunkId(batchId, chunk)}`).sort(),
    );

    const repeat = await send();
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toStrictEqual({ duplicate: true, kept, received: lines.length });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the worker's time to apply anything it was given
    expect(await hits()).toBe(kept);
    expect(await db.crawlEvent.count({ where })).toBe(kept);
  });

  it('[CRAWL-13] no IP reaches Postgres, Redis or a log line', async () => {
    expect(sentIps.length).toBeGreaterThan(1000);
    const ipSet = new Set(sentIps);
    const findIps = (text: string) => (text.match(/[0-9a-f:.]{7,}/gi) ?? []).filter((token) => ipSet.has(token));

    // Postgres: every row of every table of this file's own database.
    const rows = await databaseText(db);
    expect(rows.length).toBeGreaterThan(1000);
    expect(findIps(rows)).toEqual([]);

    // Redis: every value under this run's queue prefix (jobs, events, metadata).
    const redis = new Redis(testEnv.REDIS_URL);
    try {
      const text = await redisText(redis, `${queuePrefix}*`);
      expect(text.length).toBeGreaterThan(0);
      expect(findIps(text)).toEqual([]);
    } finally {
      redis.disconnect();
    }

    // Logs of both processes, at debug level.
    expect(findIps(gateway.stdout() + gateway.stderr() + worker.stdout() + worker.stderr())).toEqual([]);
  });
});
