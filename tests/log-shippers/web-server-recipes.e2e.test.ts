import { readdirSync, readFileSync } from 'node:fs';
import { deriveCrawlToken } from '@vt/credentials';
import { isolatedQueuePrefix, type RunningApp, startApp, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, logLines, ship, startApache, startNginx, type WebServer } from './web-servers.ts';

// The web-server recipes of deploy/shippers run for real: Debian's nginx and apache2 serve requests
// with the recipe's log format, deploy/shippers/ship-crawl-log.sh ships the log to a real ingest
// gateway, and the crawl worker stores what was kept in Postgres.

const db = testDb();
const env = { QUEUE_PREFIX: isolatedQueuePrefix() };
let gateway: RunningApp;
let worker: RunningApp;

beforeAll(async () => {
  [gateway, worker] = await Promise.all([
    startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env),
    startApp('apps/crawl-worker/src/main.ts', 'CRAWL_WORKER_METRICS_PORT', env),
  ]);
}, 60_000);

afterAll(async () => {
  for (const app of [gateway, worker]) app?.child.kill('SIGTERM');
  await Promise.all([gateway, worker].map((app) => app?.exited));
});

async function shopProperty() {
  const slug = uniqueSlug('shipper');
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: slug, domain: 'shop.example', plan: 'starter', brandTerms: [slug] },
  });
  const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion);
  return { id: property.id, env: { INGEST_URL: `${gateway.url}/api/ingest/crawl/${property.id}`, CRAWL_TOKEN: token } };
}

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
// Quotes and a backslash: the log line is JSON only if the recipe escapes them.
const PERPLEXITY_ODD = 'Mozilla/5.0 "quoted" \\ (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Seven requests, five of them AI: crawlers (one with an odd user agent, one on a subdomain and
 * answered 404), a visit ChatGPT referred, an agent that signs with Web Bot Auth and a stock
 * browser user agent, a human, and a crawler fetch of another site.
 */
async function serveTraffic(server: WebServer) {
  const statuses = [
    await get(server.port, '/docs/pricing?utm_source=chatgpt.com', { host: 'shop.example', 'user-agent': GPTBOT }),
    await get(server.port, '/gone', { host: 'www.shop.example', 'user-agent': CLAUDEBOT }),
    await get(server.port, '/', { host: 'shop.example', 'user-agent': FIREFOX, referer: 'https://chatgpt.com/' }),
    await get(server.port, '/style.css', { host: 'shop.example', 'user-agent': FIREFOX }),
    await get(server.port, '/docs/pricing', { host: 'shop.example', 'user-agent': PERPLEXITY_ODD }),
    await get(server.port, '/index.html', {
      host: 'shop.example',
      'user-agent': CHROME,
      'signature-agent': '"https://chatgpt.com"',
      'signature-input': 'sig1=("@authority" "signature-agent");created=1;keyid="k";alg="ed25519";tag="web-bot-auth"',
      signature: 'sig1=:AAAA:',
    }),
    await get(server.port, '/', { host: 'other.example', 'user-agent': GPTBOT }),
  ];
  expect(statuses).toEqual([200, 404, 200, 200, 200, 200, 200]);
  return logLines(server.log, statuses.length);
}

async function keptEvents(propertyId: string, count: number) {
  const events = () =>
    db.crawlEvent.findMany({ where: { propertyId }, orderBy: [{ occurredAt: 'asc' }, { path: 'asc' }] });
  await expect.poll(async () => (await events()).length, { timeout: 20_000 }).toBe(count);
  return events();
}

async function crawlDeliveries(propertyId: string, count: number) {
  const rows = () =>
    db.deliveryLogEntry.findMany({ where: { propertyId, channel: 'crawl' }, orderBy: { createdAt: 'asc' } });
  await expect.poll(async () => (await rows()).length, { timeout: 10_000 }).toBe(count);
  return rows();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each([
  { name: 'nginx', start: startNginx },
  { name: 'Apache', start: startApache },
])('the $name recipe, shipped by ship-crawl-log.sh', ({ start }) => {
  let server: WebServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server?.stop());

  it('[CRAWL-5] [CRAWL-7] [CRAWL-11] [CRAWL-12] [CRAWL-31] writes lines the gateway reads, and the script ships them gzipped under the token and an Idempotency-Key', async () => {
    const property = await shopProperty();
    const lines = await serveTraffic(server);
    expect(lines).toHaveLength(7);
    // Every line is one JSON object in the ingest's field names; only the signed request names the signature fields.
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const fields = ['timestamp', 'host', 'path', 'method', 'userAgent', 'statusCode', 'referer', 'ip'];
    const signed = ['signature', 'signatureInput', 'signatureAgent'];
    expect(parsed.map((line) => Object.keys(line).sort())).toEqual(
      parsed.map((_, i) => (i === 5 ? [...fields, ...signed] : fields).sort()),
    );
    expect(parsed.every((line) => typeof line.statusCode === 'number')).toBe(true);

    const run = await ship(server.log, { ...property.env, REOPEN_COMMAND: server.reopenCommand });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/: 202 \{"kept":5,"received":7\}\n$/);

    const events = await keptEvents(property.id, 5);
    const byAgent = Object.fromEntries(events.map((e) => [e.crawler ?? e.aiPlatform, e]));
    expect(Object.keys(byAgent).sort()).toEqual(['ChatGPT Agent', 'ClaudeBot', 'GPTBot', 'PerplexityBot', 'chatgpt']);
    expect(byAgent.GPTBot).toMatchObject({
      host: 'shop.example',
      path: '/docs/pricing',
      statusCode: 200,
      method: 'GET',
    });
    expect(byAgent.ClaudeBot).toMatchObject({ host: 'www.shop.example', path: '/gone', statusCode: 404 });
    expect(byAgent.PerplexityBot?.userAgent).toBe(PERPLEXITY_ODD);
    expect(byAgent.chatgpt).toMatchObject({ path: '/', userAgent: FIREFOX, referer: 'https://chatgpt.com/' });
    // Kept for its Signature-Agent whatever its user agent; a made-up signature verifies nothing.
    expect(byAgent['ChatGPT Agent']).toMatchObject({ userAgent: CHROME, path: '/index.html' });
    expect(byAgent['ChatGPT Agent']?.verification).not.toBe('verified');
    // The server's own clock and offset, to the second.
    const logged = parsed[0]!.timestamp;
    const served = typeof logged === 'number' ? logged : Date.parse(String(logged));
    expect(Math.abs(byAgent.GPTBot!.occurredAt.getTime() - served)).toBeLessThan(1000);

    const [delivery] = await crawlDeliveries(property.id, 1);
    expect(delivery).toMatchObject({ statusCode: 202, linesReceived: 7, linesKept: 5 });
    expect(delivery!.idempotencyKey).toMatch(UUID);
    expect(delivery!.hostNote).toEqual({ count: 1, hosts: ['other.example'] });
    // Delivered batches leave the spool; the log was moved away and the server reopened a new one.
    expect(readdirSync(`${server.log}.spool`).filter((f) => f !== '.lock' && f !== 'rejected')).toEqual([]);
    expect(readFileSync(server.log, 'utf8')).toBe('');
  });

  it('the next run ships only what was logged after the last one, as a new batch under a new key', async () => {
    const property = await shopProperty();
    expect(await get(server.port, '/docs/pricing', { host: 'shop.example', 'user-agent': GPTBOT })).toBe(200);
    expect(await logLines(server.log, 1)).toHaveLength(1);
    const first = await ship(server.log, { ...property.env, REOPEN_COMMAND: server.reopenCommand });
    expect(first.stdout).toMatch(/: 202 \{"kept":1,"received":1\}\n$/);

    expect(await get(server.port, '/', { host: 'shop.example', 'user-agent': CLAUDEBOT })).toBe(200);
    expect(await get(server.port, '/style.css', { host: 'shop.example', 'user-agent': FIREFOX })).toBe(200);
    // The server reopened its log after the first run: the new requests are in a new file.
    expect(await logLines(server.log, 2)).toHaveLength(2);
    const second = await ship(server.log, { ...property.env, REOPEN_COMMAND: server.reopenCommand });
    expect(second.stdout).toMatch(/: 202 \{"kept":1,"received":2\}\n$/);

    const events = await keptEvents(property.id, 2);
    expect(events.map((e) => e.crawler).sort()).toEqual(['ClaudeBot', 'GPTBot']);
    const keys = (await crawlDeliveries(property.id, 2)).map((row) => row.idempotencyKey);
    expect(keys.every((key) => UUID.test(key ?? ''))).toBe(true);
    expect(new Set(keys).size).toBe(2);
  });
});

describe('the Apache recipe and bytes JSON cannot hold', () => {
  it('[CRAWL-10] keeps a UTF-8 path as sent; a line Apache wrote with \\x escapes (a UTF-8 user agent) is counted in received and skipped, the rest kept', async () => {
    const server = await startApache();
    try {
      const property = await shopProperty();
      expect(await get(server.port, '/caf%C3%A9', { host: 'shop.example', 'user-agent': GPTBOT })).toBe(404);
      expect(await get(server.port, '/', { host: 'shop.example', 'user-agent': `${CLAUDEBOT} caf\u00e9` })).toBe(200);
      const lines = await logLines(server.log, 2);
      expect(lines[1]).toContain('caf\\xe9');
      expect(() => JSON.parse(lines[1]!)).toThrow();
      // Without REOPEN_COMMAND the file is taken as finished and moved into the spool.
      const run = await ship(server.log, property.env);
      expect(run.stdout).toMatch(/: 202 \{"kept":1,"received":2\}\n$/);
      expect((await keptEvents(property.id, 1))[0]).toMatchObject({ crawler: 'GPTBot', path: '/caf%C3%A9' });
      // GlobalLog: the virtual host that served them has a CustomLog of its own, and wrote there too.
      expect(readFileSync(`${server.dir}/site-access.log`, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    } finally {
      await server.stop();
    }
  });
});
