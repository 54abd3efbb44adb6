import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveCrawlToken, deriveWebhookSecret } from '@vt/credentials';
import { startMailCatcher } from '@vt/mail-catcher';
import {
  generateAccessLog,
  isolatedQueuePrefix,
  type OutboundEvent,
  outboundTarget,
  type RunningApp,
  readOutboundLog,
  runScript,
  scratchDatabase,
  signedLeadHeaders,
  startApp,
  testEnv,
} from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVendorReplays } from '../apps/answer-collector/src/testing/vendor-replays.ts';

// SVC-1 at run time: every app runs as a real process under the outbound guard
// (packages/test-support/src/outbound-guard.mjs), which records each connection and name lookup it
// makes. A real flow goes through them (ops loads the crawler ranges from files, a console sign-in
// sets up a property, a crawl batch and a signed lead go through the gateway to the workers, /v1
// reads with a key, the collector asks a platform), and afterwards the logs must show Postgres,
// Redis and nothing else, but the one platform host the collector is configured with and the one
// SMTP server the notifier is (a test email queued from the console goes through it).

const APPS = {
  'ingest-gateway': 'INGEST_GATEWAY_PORT',
  'crawl-worker': 'CRAWL_WORKER_METRICS_PORT',
  'lead-worker': 'LEAD_WORKER_METRICS_PORT',
  'read-api': 'READ_API_PORT',
  console: 'CONSOLE_PORT',
  'answer-collector': 'ANSWER_COLLECTOR_METRICS_PORT',
  notifier: 'NOTIFIER_PORT',
} as const;
type AppName = keyof typeof APPS;

const scratch = await scratchDatabase('outbound');
const db = scratch.db;
const queuePrefix = isolatedQueuePrefix();
const work = mkdtempSync(join(tmpdir(), 'vt-outbound-'));
const logOf = (name: string) => join(work, `${name}.jsonl`);
const access = generateAccessLog({ lines: 2_000, seed: 26 });
const apps = {} as Record<AppName, RunningApp>;
let platforms: Awaited<ReturnType<typeof startVendorReplays>>;
const catcher = await startMailCatcher();

/** `host:port` of a postgresql:// or redis:// URL, with the scheme's default port. */
function endpointOf(url: string, defaultPort: number): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || defaultPort}`;
}
const POSTGRES = endpointOf(scratch.url, 5432);
const REDIS = endpointOf(testEnv.REDIS_URL, 6379);
const env = (name: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: scratch.url,
  QUEUE_PREFIX: queuePrefix,
  OUTBOUND_LOG: logOf(name),
  ...extra,
});

/** Runs an ops command under the guard; its output, parsed. */
async function ops(...args: string[]) {
  const proc = runScript('apps/ops/src/main.ts', [...args, '--json'], env(`ops-${args[0]}-${args[1]}`));
  expect(await proc.exited, proc.stderr()).toBe(0);
  return JSON.parse(proc.stdout());
}

beforeAll(async () => {
  platforms = await startVendorReplays(() => ({ text: 'Shop is fine.', citations: ['https://shop.example/'] }));
  const extra: Partial<Record<AppName, Record<string, string>>> = {
    'answer-collector': { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: platforms.baseUrls.chatgpt },
    notifier: { SMTP_URL: catcher.url, MAIL_FROM: 'notify@vt.example' },
  };
  // Ops loads the crawler operators' ranges from files, as an air-gapped deployment does; the
  // gateway reads them as it starts.
  expect((await ops('crawlers', 'refresh', '--from', access.rangesDir)).operators.length).toBeGreaterThan(0);
  await Promise.all(
    (Object.entries(APPS) as [AppName, string][]).map(async ([app, portVariable]) => {
      apps[app] = await startApp(`apps/${app}/src/main.ts`, portVariable, env(app, extra[app]), 60_000);
    }),
  );
}, 120_000);

afterAll(async () => {
  for (const app of Object.values(apps)) app.child.kill('SIGTERM');
  await Promise.all(Object.values(apps).map((app) => app.exited));
  await platforms?.close();
  await catcher.close();
  await scratch.drop();
  rmSync(work, { recursive: true, force: true });
});

/** A JSON request to an app; its status and body. */
async function call(url: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  const res = await fetch(url, {
    ...rest,
    headers: { ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...rest.headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Signs up and in through the console process; a property of a new team, a read key and the session. */
async function consoleSetup() {
  const url = apps.console.url;
  const email = `outbound-${Date.now()}@example.test`;
  const password = 'correct horse battery';
  expect(
    (await call(`${url}/api/auth/sign-up`, { method: 'POST', json: { email, password, name: 'Ada' } })).status,
  ).toBe(201);
  const signIn = await call(`${url}/api/auth/sign-in`, { method: 'POST', json: { email, password } });
  expect(signIn.status).toBe(200);
  const session = { authorization: `Bearer ${signIn.body.token}` };
  const team = await call(`${url}/api/teams`, {
    method: 'POST',
    headers: session,
    json: { name: 'Outbound', slug: `outbound-${Date.now()}` },
  });
  expect(team.status).toBe(201);
  const headers = { ...session, 'x-team-id': team.body.team.id as string };
  const created = await call(`${url}/api/properties`, {
    method: 'POST',
    headers,
    json: { name: 'Shop', domain: access.truth.host, plan: 'growth', brandTerms: ['Shop'] },
  });
  expect(created.status).toBe(201);
  const propertyId: string = created.body.property.id;
  const prompt = await call(`${url}/api/properties/${propertyId}/prompts`, {
    method: 'POST',
    headers,
    json: { text: 'best shop software' },
  });
  expect(prompt.status).toBe(201);
  const key = await call(`${url}/api/keys`, { method: 'POST', headers, json: {} });
  expect(key.status).toBe(201);
  return { propertyId, headers, apiKey: key.body.secret as string };
}

/** Waits for `probe` to be truthy. */
async function until(what: string, probe: () => Promise<unknown>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What `events` reached (but tsx's own socket), which names they looked up, what they started: each once, sorted. */
function reached(events: OutboundEvent[]) {
  const of = (...kinds: OutboundEvent['kind'][]) => [
    ...new Set(
      events
        .filter((e) => kinds.includes(e.kind))
        .map(outboundTarget)
        .sort(),
    ),
  ];
  return { connections: of('connect', 'tls', 'udp'), lookups: of('lookup', 'resolve'), spawned: of('spawn', 'worker') };
}

describe('outbound connections at run time', () => {
  it('[SVC-1] the apps and ops reach only Postgres and Redis through a whole flow; the collector also its one configured platform, the notifier its SMTP server', async () => {
    const { propertyId, headers, apiKey } = await consoleSetup();
    const property = await db.property.findUniqueOrThrow({ where: { id: propertyId } });

    // A crawl batch: AI crawlers with their IPs, AI referrers, humans and other bots.
    const batch = await call(`${apps['ingest-gateway'].url}/api/ingest/crawl/${propertyId}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, propertyId, property.crawlTokenVersion)}`,
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
      },
      body: access.gzip,
    });
    expect([batch.status, batch.body.kept]).toEqual([202, access.truth.kept]);
    // A signed lead from a ChatGPT referrer.
    const body = JSON.stringify({ contact: 'ada@example.com', referrer: 'https://chatgpt.com/' });
    const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, propertyId);
    const lead = await call(`${apps['ingest-gateway'].url}/api/webhooks/leads/${propertyId}`, {
      method: 'POST',
      headers: signedLeadHeaders(secret, { eventId: 'evt-outbound', body }),
      body,
    });
    expect(lead.body).toMatchObject({ matched: true, platform: 'chatgpt' });
    // Today's questions, asked now.
    expect((await ops('answers', 'collect')).requested).toBe(true);

    await until('the crawl batch stored', async () => (await db.crawlEvent.count()) === access.truth.kept);
    const verified = await db.crawlerDailyCount.aggregate({
      where: { verification: 'verified' },
      _sum: { hits: true },
    });
    expect(verified._sum.hits).toBe(Object.values(access.truth.verifiedHits).reduce((a, b) => a + b, 0));
    const referrals = await db.aiReferralDailyCount.aggregate({ _sum: { visits: true } });
    expect(referrals._sum.visits).toBe(Object.values(access.truth.referrals).reduce((a, b) => a + b, 0));
    expect(referrals._sum.visits).toBeGreaterThan(0);
    await until('the lead stored', async () => (await db.lead.count()) === 1);
    await until('the answer stored', async () => (await db.response.count()) === 1);
    expect(platforms.requests.map((r) => r.prompt)).toEqual(['best shop software']);

    // Reads: /v1 with the key, the console with the session.
    const v1 = { authorization: `Bearer ${apiKey}` };
    for (const path of ['/v1/properties', '/v1/visibility', '/v1/responses', '/v1/sources']) {
      expect((await call(`${apps['read-api'].url}${path}`, { headers: v1 })).status, path).toBe(200);
    }
    for (const path of ['/api/me', `/api/properties/${propertyId}/activity`, `/api/properties/${propertyId}/crawl`]) {
      expect((await call(`${apps.console.url}${path}`, { headers })).status, path).toBe(200);
    }
    // A test email: queued by the console, sent by the notifier to its SMTP server.
    const test = await call(`${apps.console.url}/api/team/emails/test`, { method: 'POST', headers });
    expect(test.status).toBe(201);
    await catcher.waitForMessage((m) => m.messageId === `<${test.body.email.id}@vt.example>`, 30_000);

    // Stopped, so each log holds everything its app did, shutdown included.
    for (const app of Object.values(apps)) app.child.kill('SIGTERM');
    expect(await Promise.all(Object.values(apps).map((app) => app.exited))).toEqual(Object.values(apps).map(() => 0));

    // What each process may reach: the databases it uses, and the collector its platform.
    const reaches: Record<string, string[]> = {
      ...Object.fromEntries(Object.keys(APPS).map((app) => [app, [POSTGRES, REDIS]])),
      'answer-collector': [POSTGRES, REDIS, new URL(platforms.baseUrls.chatgpt).host],
      notifier: [POSTGRES, REDIS, `${catcher.host}:${catcher.port}`],
      'ops-crawlers-refresh': [POSTGRES],
      'ops-answers-collect': [REDIS],
    };
    // The only names configured anywhere: the databases' hosts and the address the apps listen on.
    const names = new Set([new URL(scratch.url).hostname, new URL(testEnv.REDIS_URL).hostname, '127.0.0.1']);
    for (const [name, expected] of Object.entries(reaches)) {
      const { connections, lookups, spawned } = reached(readOutboundLog(logOf(name)));
      // Equal, not contained: a process whose log lacks its databases ran unguarded.
      expect(connections, `${name} connected to`).toEqual(expected.sort());
      expect(
        lookups.filter((host) => !names.has(host)),
        `${name} looked up`,
      ).toEqual([]);
      // A child process or worker thread would run unguarded: there must be none.
      expect(spawned, `${name} started`).toEqual([]);
    }
  }, 120_000);
});
