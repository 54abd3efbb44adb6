import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveCrawlToken } from '@vt/credentials';
import { isolatedQueuePrefix, type RunningApp, startApp, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ship } from './web-servers.ts';

// deploy/shippers/ship-crawl-log.sh against a real gateway and crawl worker, where delivery goes
// wrong: an answer lost after the gateway accepted the batch, a refused token, a batch over the
// gateway's cap, an unreadable batch, a run that died half way.

const db = testDb();
// A small inflated-size cap, so that a batch of a few hundred lines answers 413.
const INFLATED_CAP = 64 * 1024;
const env = { QUEUE_PREFIX: isolatedQueuePrefix(), CRAWL_MAX_INFLATED_BYTES: String(INFLATED_CAP) };
let gateway: RunningApp;
let worker: RunningApp;
const dirs: string[] = [];

beforeAll(async () => {
  [gateway, worker] = await Promise.all([
    startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
    startApp('apps/crawl-worker/src/main.ts', 'CRAWL_WORKER_METRICS_PORT', env),
  ]);
}, 60_000);

afterAll(async () => {
  for (const app of [gateway, worker]) app?.child.kill('SIGTERM');
  await Promise.all([gateway, worker].map((app) => app?.exited));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function shopProperty() {
  const slug = uniqueSlug('ship');
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: slug, domain: 'shop.example', plan: 'starter', brandTerms: [slug] },
  });
  return {
    id: property.id,
    url: `${gateway.url}/api/ingest/crawl/${property.id}`,
    token: deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion),
  };
}

/** An access log of `lines` requests in the ingest's field names, every other one by GPTBot. */
function accessLog(lines: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'vt-ship-'));
  dirs.push(dir);
  const at = new Date().toISOString();
  const text = Array.from({ length: lines }, (_, i) =>
    JSON.stringify({
      timestamp: at,
      host: 'shop.example',
      path: `/p/${i}`,
      method: 'GET',
      userAgent: i % 2 === 0 ? 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)' : 'Firefox/133.0',
      statusCode: 200,
      referer: '',
      ip: '192.0.2.1',
    }),
  ).join('\n');
  const file = join(dir, 'ai_ingest.ndjson');
  writeFileSync(file, `${text}\n`);
  return file;
}

const gptbotHits = async (propertyId: string) =>
  (await db.crawlerDailyCount.aggregate({ where: { propertyId, crawler: 'GPTBot' }, _sum: { hits: true } }))._sum
    .hits ?? 0;

const deliveries = (propertyId: string) =>
  db.deliveryLogEntry.findMany({ where: { propertyId, channel: 'crawl' }, orderBy: { createdAt: 'asc' } });

/** What is in the spool: batch and key files, by directory. */
function spooled(log: string): string[] {
  const spool = `${log}.spool`;
  return readdirSync(spool, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ndjson|key)$/.test(f))
    .sort();
}

/** A TCP proxy to the gateway that drops the gateway's answer to the first connection. */
async function answerLosingProxy(target: number): Promise<{ url: (path: string) => string; close(): void }> {
  let connections = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.pipe(upstream);
    if (connections++ === 0) {
      // The gateway has read and accepted the batch by the time it answers; the sender never hears.
      upstream.once('data', () => {
        client.destroy();
        upstream.destroy();
      });
    } else {
      upstream.pipe(client);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: (path) => `http://127.0.0.1:${port}${path}`, close: () => server.close() };
}

describe('ship-crawl-log.sh', () => {
  it('[CRAWL-17] retries a batch whose answer was lost under the same key: the gateway answers it as a repeat and its hits count once', async () => {
    const property = await shopProperty();
    const proxy = await answerLosingProxy(gateway.port);
    try {
      const log = accessLog(40);
      const run = await ship(log, {
        INGEST_URL: proxy.url(new URL(property.url).pathname),
        CRAWL_TOKEN: property.token,
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('retrying in 1 s under the same key');
      expect(run.stdout).toMatch(/: 200 \{"duplicate":true,"kept":20,"received":40\}\n$/);
      expect(spooled(log)).toEqual([]);
    } finally {
      proxy.close();
    }
    await expect.poll(() => gptbotHits(property.id), { timeout: 20_000 }).toBe(20);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await gptbotHits(property.id)).toBe(20);
    await expect.poll(async () => (await deliveries(property.id)).length).toBe(1);
    expect((await deliveries(property.id)).map((r) => r.statusCode)).toEqual([202]);
  });

  it('[CRAWL-21] stops at a refused token and keeps every batch; the next run sends them under the keys minted first', async () => {
    const property = await shopProperty();
    const log = accessLog(30);
    const refused = await ship(log, { INGEST_URL: property.url, CRAWL_TOKEN: 'not-the-token', BATCH_LINES: '10' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/: 401 \{.*"reason":"invalid_token".*stopping, the batches stay/);
    expect(spooled(log).filter((f) => f.endsWith('.ndjson'))).toHaveLength(3);
    const keyFiles = spooled(log).filter((f) => f.endsWith('.key'));
    const keys = keyFiles.map((f) => readFileSync(join(`${log}.spool`, f), 'utf8').trim());

    const sent = await ship(log, { INGEST_URL: property.url, CRAWL_TOKEN: property.token, BATCH_LINES: '10' });
    expect(sent.code).toBe(0);
    expect(sent.stdout.match(/: 202 \{"kept":5,"received":10\}/g)).toHaveLength(3);
    await expect.poll(async () => (await deliveries(property.id)).filter((r) => r.statusCode === 202).length).toBe(3);
    const accepted = (await deliveries(property.id)).filter((r) => r.statusCode === 202);
    expect(accepted.map((r) => r.idempotencyKey).sort()).toEqual([...keys].sort());
    expect(spooled(log)).toEqual([]);
  });

  it('[CRAWL-25] splits a batch the gateway refuses as too large (413) in two, each half a new batch with a new key', async () => {
    const property = await shopProperty();
    const log = accessLog(600);
    expect(readFileSync(log).length).toBeGreaterThan(INFLATED_CAP);
    expect(readFileSync(log).length).toBeLessThan(2 * INFLATED_CAP);
    const run = await ship(log, { INGEST_URL: property.url, CRAWL_TOKEN: property.token });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('413, split in two');
    expect(run.stdout.match(/: 202 \{"kept":150,"received":300\}/g)).toHaveLength(2);
    await expect.poll(() => gptbotHits(property.id), { timeout: 20_000 }).toBe(300);
    // The gateway writes its delivery-log rows a moment after answering.
    await expect.poll(async () => (await deliveries(property.id)).length).toBe(3);
    const rows = await deliveries(property.id);
    expect(rows.map((r) => r.statusCode).sort()).toEqual([202, 202, 413]);
    expect(new Set(rows.map((r) => r.idempotencyKey)).size).toBe(3);
  });

  it('[CRAWL-20] moves a batch the gateway cannot read (400) aside with its answer, and sends the rest', async () => {
    const property = await shopProperty();
    const log = accessLog(10);
    writeFileSync(log, `${readFileSync(log, 'utf8')}${'not a log line\n'.repeat(10)}`);
    const run = await ship(log, { INGEST_URL: property.url, CRAWL_TOKEN: property.token, BATCH_LINES: '10' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/batch-aaaa\.ndjson: 202 \{"kept":5,"received":10\}/);
    expect(run.stdout).toMatch(/batch-aaab\.ndjson: 400 .*unreadable_body.*moved to .*rejected/);
    expect(spooled(log)).toEqual(['rejected/batch-aaab.key', 'rejected/batch-aaab.ndjson']);
    expect(readFileSync(`${log}.spool/rejected/batch-aaab.answer`, 'utf8')).toContain('unreadable_body');
  });

  it('finishes the work of a run that died after moving the log into the spool, before cutting it', async () => {
    const property = await shopProperty();
    const log = accessLog(8);
    mkdirSync(`${log}.spool/new-20260101T000000Z-1`, { recursive: true });
    writeFileSync(`${log}.spool/new-20260101T000000Z-1/source`, readFileSync(log));
    rmSync(log);
    const run = await ship(log, { INGEST_URL: property.url, CRAWL_TOKEN: property.token });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/: 202 \{"kept":4,"received":8\}\n$/);
    expect(readdirSync(`${log}.spool`).sort()).toEqual(['.lock', 'rejected']);
  });
});
