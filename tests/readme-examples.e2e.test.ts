import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deriveCrawlToken, deriveWebhookSecret } from '@vt/credentials';
import { isolatedQueuePrefix, ROOT, type RunningApp, startApp, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The client examples of the log shippers' and webhook senders' pages (docs/), copied out of the
// page and run as written, by /bin/sh and node with only the tools of a stock Debian machine (sh,
// gzip, curl, openssl, /proc's uuid), against a real ingest gateway.

const run = promisify(execFile);
const logShippers = readFileSync(`${ROOT}docs/log-shippers.md`, 'utf8');
const webhookSenders = readFileSync(`${ROOT}docs/webhook-senders.md`, 'utf8');
const db = testDb();
let gateway: RunningApp;
const work = mkdtempSync(join(tmpdir(), 'vt-readme-'));

beforeAll(async () => {
  gateway = await startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', {
    QUEUE_PREFIX: isolatedQueuePrefix(),
  });
}, 60_000);

afterAll(async () => {
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
  rmSync(work, { recursive: true, force: true });
});

/** The page's fenced block of `language` that contains `marker`, exactly one. */
function example(page: string, language: string, marker: string): string {
  const blocks = [...page.matchAll(/```(\w*)\n([\s\S]*?)```/g)].filter(
    (m) => m[1] === language && m[2]!.includes(marker),
  );
  expect(blocks).toHaveLength(1);
  return blocks[0]![2]!;
}

async function property() {
  const slug = uniqueSlug('readme');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({
    data: { teamId: team.id, name: slug, domain: 'shop.example', plan: 'starter', brandTerms: [slug] },
  });
}

/** Runs a page's Node example, saved under `file` in the work folder, as a sender of a new property's leads. */
async function runLeadExample(file: string, code: string): Promise<string> {
  const shop = await property();
  writeFileSync(join(work, file), code);
  const { stdout } = await run(process.execPath, [file], {
    cwd: work,
    env: {
      WEBHOOK_URL: `${gateway.url}/api/webhooks/leads/${shop.id}`,
      WEBHOOK_SECRET: deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, shop.id),
    },
    timeout: 30_000,
  });
  return stdout;
}

const shell = (script: string, env: Record<string, string>) =>
  run('/bin/sh', ['-c', script], { cwd: work, env: { PATH: '/usr/bin:/bin', ...env }, timeout: 30_000 });

describe('the docs’ examples, run as written', () => {
  it('[CRAWL-5] [CRAWL-16] the crawl ingest curl example posts a gzipped NDJSON file under a fresh Idempotency-Key', async () => {
    const shop = await property();
    const at = new Date().toISOString();
    const line = (userAgent: string) =>
      JSON.stringify({ timestamp: at, host: 'shop.example', path: '/', userAgent, statusCode: 200 });
    writeFileSync(join(work, 'access.ndjson'), `${line('GPTBot/1.2')}\n${line('Firefox/133.0')}\n`);
    const script = example(logShippers, 'sh', 'gzip -c access.ndjson');
    const env = {
      INGEST_URL: `${gateway.url}/api/ingest/crawl/${shop.id}`,
      TOKEN: deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, shop.id, shop.crawlTokenVersion),
    };
    // Twice: each run names its batch afresh, so the second is a new batch, not a repeat.
    for (let i = 0; i < 2; i++) expect(JSON.parse((await shell(script, env)).stdout)).toEqual({ kept: 1, received: 2 });
    const rows = () => db.deliveryLogEntry.findMany({ where: { propertyId: shop.id, channel: 'crawl' } });
    await expect.poll(async () => (await rows()).length).toBe(2);
    const keys = (await rows()).map((r) => r.idempotencyKey);
    expect(keys.every((key) => /^[0-9a-f-]{36}$/.test(key ?? ''))).toBe(true);
    expect(new Set(keys).size).toBe(2);
  });

  it('the lead webhook curl and openssl example is accepted and attributed', async () => {
    const shop = await property();
    const script = example(webhookSenders, 'sh', 'openssl dgst -sha256 -hmac');
    const { stdout } = await shell(script, {
      WEBHOOK_URL: `${gateway.url}/api/webhooks/leads/${shop.id}`,
      WEBHOOK_SECRET: deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, shop.id),
    });
    expect(JSON.parse(stdout)).toMatchObject({ matched: true, platform: 'perplexity', warnings: [] });
  });

  it('the lead webhook Node example runs as the ES module the page says it is', async () => {
    const file = /save it as\s+`([\w-]+\.mjs)`/.exec(webhookSenders)?.[1];
    expect(file).toBeDefined();
    const stdout = await runLeadExample(file!, example(webhookSenders, 'js', "from 'node:crypto'"));
    expect(stdout).toContain('status: 200');
    expect(stdout).toContain("platform: 'chatgpt'");
  });

  it('[LEAD-4] the Standard Webhooks example runs with the standardwebhooks package, signing with the secret as shown', async () => {
    const file = /saved as\s+`([\w-]+\.mjs)`:/.exec(webhookSenders)?.[1];
    expect(file).toBe('send-lead-standard.mjs');
    // As `npm install standardwebhooks` would leave it: the package in node_modules beside the file.
    mkdirSync(join(work, 'node_modules'), { recursive: true });
    symlinkSync(realpathSync(join(ROOT, 'node_modules/standardwebhooks')), join(work, 'node_modules/standardwebhooks'));
    const stdout = await runLeadExample(file!, example(webhookSenders, 'js', "from 'standardwebhooks'"));
    expect(stdout).toMatch(/^200 /);
    expect(stdout).toContain("platform: 'chatgpt'");
  });
});
