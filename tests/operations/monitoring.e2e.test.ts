import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveCrawlToken, deriveWebhookSecret } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';
import { answerScheduleJob, crawlBatchJob, createQueue, leadJob } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import {
  type Exposition,
  freePort,
  isolatedQueuePrefix,
  promtool,
  ROOT,
  type RunningApp,
  sampleSum,
  scrape,
  scratchDatabase,
  signedLeadHeaders,
  startApp,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startVendorReplays } from '../../apps/answer-collector/src/testing/vendor-replays.ts';
import { dashboardExpressions, dashboardProblems, metricNamesIn } from './dashboard.ts';

// Operating the service, end to end: every app as a real process on a database and queue prefix of
// its own, real traffic through the gateway, real jobs through Redis/BullMQ and the workers into
// Postgres, an answer asked of a local server speaking OpenAI's wire format. Then each app's
// /metrics is read (promtool's linter passes, the counters moved as the traffic says), and a real
// Prometheus (Debian's) scrapes the apps with deploy/prometheus/prometheus.yml's job and loads
// deploy/prometheus/alerts.yml: every query of the Grafana dashboard runs on what it scraped, and
// the "Nothing arriving" alert goes pending from the gateway's real count.

const APPS = {
  'ingest-gateway': 'INGEST_GATEWAY_PORT',
  'crawl-worker': 'CRAWL_WORKER_METRICS_PORT',
  'lead-worker': 'LEAD_WORKER_METRICS_PORT',
  'answer-collector': 'ANSWER_COLLECTOR_METRICS_PORT',
  'read-api': 'READ_API_PORT',
  console: 'CONSOLE_PORT',
  // Its SMTP server is never reached here (no email is queued): the default address is enough.
  notifier: 'NOTIFIER_PORT',
} as const;
type AppName = keyof typeof APPS;

const DASHBOARD = JSON.parse(readFileSync(`${ROOT}deploy/grafana/ai-visibility.json`, 'utf8'));
const ALERTS_FILE = `${ROOT}deploy/prometheus/alerts.yml`;

const prefix = isolatedQueuePrefix();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const crawlQueue = createQueue(crawlBatchJob, redis, prefix);
const leadQueue = createQueue(leadJob, redis, prefix);
const scheduleQueue = createQueue(answerScheduleJob, redis, prefix);
const work = mkdtempSync(join(tmpdir(), 'vt-monitoring-'));
const apps = {} as Record<AppName, RunningApp>;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: PrismaClient;
let platforms: Awaited<ReturnType<typeof startVendorReplays>>;
let prometheus: { child: ChildProcess; url: string; log: () => string } | undefined;

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const metricsOf = (app: AppName) => scrape(`${apps[app].url}/metrics`);

async function prometheusApi<T>(path: string): Promise<T> {
  const res = await fetch(`${prometheus?.url}${path}`);
  const body = (await res.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`${path}: ${body.error}`);
  return body.data;
}

/** Prometheus with prometheus.yml's job and alerts, its targets moved to the apps' ports, every second. */
async function startPrometheus() {
  const config = parse(readFileSync(`${ROOT}deploy/prometheus/prometheus.yml`, 'utf8'));
  config.global = { scrape_interval: '1s', evaluation_interval: '1s' };
  config.rule_files = [ALERTS_FILE];
  config.scrape_configs[0].static_configs = [{ targets: Object.values(apps).map((app) => `127.0.0.1:${app.port}`) }];
  writeFileSync(join(work, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [
      `--config.file=${join(work, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(work, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  child.on('error', (err) => {
    log += `prometheus did not run (${err.message}): apt-get install prometheus (.ci/run installs it)`;
  });
  prometheus = { child, url: `http://127.0.0.1:${port}`, log: () => log };
  await until(
    `prometheus ready (${log.slice(-500)})`,
    async () => (await fetch(`${prometheus?.url}/-/ready`).catch(() => undefined))?.ok,
  );
  await until('every app scraped', async () => {
    const { activeTargets } = await prometheusApi<{ activeTargets: { health: string }[] }>('/api/v1/targets');
    return activeTargets.length === Object.keys(APPS).length && activeTargets.every((t) => t.health === 'up');
  });
}

async function property(db: PrismaClient, data: { plan?: 'free' | 'growth'; crawlIngestionEnabled?: boolean } = {}) {
  const slug = uniqueSlug('mon');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({
    data: { teamId: team.id, name: slug, domain: 'shop.example', brandTerms: ['Shop'], plan: 'growth', ...data },
  });
}

beforeAll(async () => {
  scratch = await scratchDatabase('monitoring');
  db = scratch.db;
  platforms = await startVendorReplays(() => ({
    text: 'Shop is a fine choice for small teams.',
    citations: ['https://shop.example/'],
  }));
  const env = { DATABASE_URL: scratch.url, QUEUE_PREFIX: prefix };
  const extra: Partial<Record<AppName, Record<string, string>>> = {
    'answer-collector': { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: platforms.baseUrls.chatgpt },
  };
  await Promise.all(
    (Object.entries(APPS) as [AppName, string][]).map(async ([app, portVariable]) => {
      apps[app] = await startApp(`apps/${app}/src/main.ts`, portVariable, { ...env, ...extra[app] }, 60_000);
    }),
  );
  await startPrometheus();
}, 120_000);

afterAll(async () => {
  prometheus?.child.kill('SIGTERM');
  for (const app of Object.values(apps)) app.child.kill('SIGTERM');
  await Promise.all(Object.values(apps).map((app) => app.exited));
  await Promise.all([crawlQueue, leadQueue, scheduleQueue].map((q) => q.obliterate({ force: true }).catch(() => {})));
  await Promise.all([crawlQueue.close(), leadQueue.close(), scheduleQueue.close()]);
  await closeRedisConnection(redis);
  await platforms?.close();
  await scratch?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('operating the service: metrics, Prometheus, alerts and the dashboard', () => {
  const before = {} as Record<AppName, Exposition>;
  const after = {} as Record<AppName, Exposition & { text: string }>;
  let shop: Awaited<ReturnType<typeof property>>;

  it('real traffic moves the gateway’s and the workers’ counters, and every app’s /metrics passes promtool', async () => {
    for (const app of Object.keys(APPS) as AppName[]) before[app] = await metricsOf(app);
    const gateway = apps['ingest-gateway'].url;

    shop = await property(db);
    const quiet = await property(db);
    await db.deliveryLogEntry.create({
      data: {
        propertyId: quiet.id,
        channel: 'crawl',
        statusCode: 202,
        outcome: 'accepted: kept 1 of 10 lines',
        createdAt: new Date(Date.now() - 25 * 3600 * 1000),
      },
    });
    await property(db, { crawlIngestionEnabled: false });
    await property(db, { plan: 'free' });
    const refused = await property(db);
    await db.prompt.create({ data: { propertyId: shop.id, text: 'best shop software', tags: [] } });

    // A crawl batch: one AI crawler line kept of two.
    const at = new Date().toISOString();
    const line = (userAgent: string) =>
      JSON.stringify({ timestamp: at, host: 'shop.example', path: '/', userAgent, statusCode: 200 });
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, shop.id, shop.crawlTokenVersion);
    const batch = await fetch(`${gateway}/api/ingest/crawl/${shop.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body: `${line('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)')}\n${line('Firefox/133.0')}\n`,
    });
    expect(await batch.json()).toEqual({ kept: 1, received: 2 });
    const wrongToken = await fetch(`${gateway}/api/ingest/crawl/${refused.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body: `${line('GPTBot/1.2')}\n`,
    });
    expect(wrongToken.status).toBe(401);
    // A stranger's wrong token decides nothing (issue 33); the property's own sender left on a
    // rotated token does: that property shows Rejecting.
    const oldToken = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, refused.id, refused.crawlTokenVersion);
    await db.property.update({ where: { id: refused.id }, data: { crawlTokenVersion: { increment: 1 } } });
    const rotated = await fetch(`${gateway}/api/ingest/crawl/${refused.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${oldToken}`, 'content-type': 'application/x-ndjson' },
      body: `${line('GPTBot/1.2')}\n`,
    });
    expect(rotated.status).toBe(401);

    // Leads: one ChatGPT referred, one from nowhere in particular, a repeat, a bad signature.
    const secret = deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, shop.id);
    const send = (eventId: string, lead: object, sign = secret) => {
      const body = JSON.stringify({ contact: 'ada@example.com', ...lead });
      return fetch(`${gateway}/api/webhooks/leads/${shop.id}`, {
        method: 'POST',
        headers: signedLeadHeaders(sign, { eventId, body }),
        body,
      });
    };
    const chatgpt = (await (await send('evt-1', { referrer: 'https://chatgpt.com/' })).json()) as {
      leadId: string;
    };
    expect(chatgpt).toMatchObject({ matched: true, platform: 'chatgpt' });
    expect((await send('evt-2', { referrer: 'https://news.example/' })).status).toBe(200);
    expect(
      ((await (await send('evt-1', { referrer: 'https://chatgpt.com/' })).json()) as { warnings: string[] }).warnings,
    ).toEqual(['duplicate_event']);
    expect((await send('evt-3', {}, 'whsec_wrong')).status).toBe(401);

    // A crawl job BullMQ delivers that the worker cannot read: retried once, then failed for good.
    await crawlQueue.add(crawlBatchJob.name, { garbage: true } as never, { attempts: 2, backoff: 0, jobId: 'bad-1' });
    // A lead job delivered again under another job id: the worker skips it as already applied.
    const stored = await until(
      'the ChatGPT lead stored',
      async () => (await db.lead.findUnique({ where: { id: chatgpt.leadId } })) ?? undefined,
    );
    expect(stored.platform).toBe('chatgpt');
    const first = await leadQueue.getJob(chatgpt.leadId);
    await leadQueue.add(leadJob.name, first?.data, { jobId: `again-${randomUUID()}` });
    // The day's questions now, as the daily schedule (and `ops answers collect`) asks.
    await scheduleQueue.add(answerScheduleJob.name, {});
    // Read API and console requests (refused without credentials: counted like any other).
    expect((await fetch(`${apps['read-api'].url}/v1/responses`)).status).toBe(401);
    expect((await fetch(`${apps.console.url}/api/me`)).status).toBe(401);

    const delta = (app: AppName, name: string, labels: Record<string, string> = {}) =>
      sampleSum(after[app], name, labels) - sampleSum(before[app], name, labels);
    await until('every job settled', async () => {
      for (const app of Object.keys(APPS) as AppName[]) after[app] = await metricsOf(app);
      return (
        delta('crawl-worker', 'vt_jobs_processed_total', { queue: 'crawl-batch' }) === 1 &&
        delta('crawl-worker', 'vt_jobs_failed_total', { queue: 'crawl-batch' }) === 1 &&
        delta('lead-worker', 'vt_jobs_processed_total', { queue: 'lead' }) === 3 &&
        delta('answer-collector', 'vt_jobs_processed_total', { queue: 'answers-chatgpt' }) === 1 &&
        sampleSum(after['ingest-gateway'], 'vt_crawl_connections', { status: 'connected' }) === 1
      );
    });

    // The gateway: leads by platform, the repeat, the refusal; crawl batches by status.
    expect(delta('ingest-gateway', 'vt_leads_accepted_total', { platform: 'chatgpt' })).toBe(1);
    expect(delta('ingest-gateway', 'vt_leads_accepted_total', { platform: 'unclassified' })).toBe(1);
    expect(delta('ingest-gateway', 'vt_leads_duplicate_total')).toBe(1);
    expect(delta('ingest-gateway', 'vt_leads_refused_total', { reason: 'invalid_signature' })).toBe(1);
    expect(delta('ingest-gateway', 'vt_crawl_batches_total', { status: '202' })).toBe(1);
    expect(delta('ingest-gateway', 'vt_crawl_batches_total', { status: '401' })).toBe(2);
    // Every property's connection, counted from the delivery log of this database.
    const connections = (status: string) => sampleSum(after['ingest-gateway'], 'vt_crawl_connections', { status });
    expect(
      Object.fromEntries(
        ['connected', 'nothing_arriving', 'rejecting', 'disconnected', 'not_verified'].map((s) => [s, connections(s)]),
      ),
    ).toEqual({ connected: 1, nothing_arriving: 1, rejecting: 1, disconnected: 1, not_verified: 1 });

    // The workers: processed, retried, failed, skipped, and each attempt timed.
    expect(delta('crawl-worker', 'vt_jobs_retried_total', { queue: 'crawl-batch' })).toBe(1);
    expect(delta('crawl-worker', 'vt_job_duration_seconds_count', { queue: 'crawl-batch', result: 'completed' })).toBe(
      1,
    );
    expect(delta('crawl-worker', 'vt_job_duration_seconds_count', { queue: 'crawl-batch', result: 'failed' })).toBe(2);
    expect(delta('lead-worker', 'vt_jobs_skipped_total', { queue: 'lead', reason: 'duplicate' })).toBe(1);
    expect(delta('lead-worker', 'vt_jobs_failed_total', { queue: 'lead' })).toBe(0);
    expect(delta('lead-worker', 'vt_job_duration_seconds_count', { queue: 'lead', result: 'completed' })).toBe(3);
    // At least ours: the daily scheduler may add its own if the test runs at COLLECT_AT_UTC.
    expect(delta('answer-collector', 'vt_jobs_processed_total', { queue: 'answer-schedule' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(delta('answer-collector', 'vt_answers_collected_total', { platform: 'chatgpt', outcome: 'collected' })).toBe(
      1,
    );
    expect(platforms.requests.map((r) => r.prompt)).toEqual(['best shop software']);
    // Queue depth, from Redis: the failed job is kept, nothing waits; the gateway reports the
    // queues it fills as the workers report theirs.
    for (const app of ['crawl-worker', 'ingest-gateway'] as const) {
      expect(sampleSum(after[app], 'vt_queue_jobs', { queue: 'crawl-batch', state: 'failed' }), app).toBe(1);
      expect(sampleSum(after[app], 'vt_queue_jobs', { queue: 'crawl-batch', state: 'waiting' }), app).toBe(0);
    }
    expect(sampleSum(after['answer-collector'], 'vt_queue_jobs', { queue: 'answers-chatgpt', state: 'waiting' })).toBe(
      0,
    );

    // What Prometheus's linter says of each app's whole exposition.
    for (const app of Object.keys(APPS) as AppName[]) {
      const lint = await promtool(['check', 'metrics'], after[app].text);
      expect(`${app}: ${lint.output}`).toBe(`${app}: `);
      expect(lint.code, app).toBe(0);
    }
  }, 90_000);

  it('names in the dashboard and the alert rules are metrics the apps export', () => {
    const exported = new Map<string, string>();
    for (const exposition of Object.values(after)) {
      for (const [name, type] of exposition.types) exported.set(name, type);
    }
    const known = (name: string) => {
      if (exported.has(name) || name === 'up') return true; // up: Prometheus's own, per target
      const histogram = /^(.*)_(bucket|sum|count)$/.exec(name);
      return histogram !== null && exported.get(histogram[1]!) === 'histogram';
    };
    const dashboardNames = metricNamesIn(dashboardExpressions(DASHBOARD).map((e) => e.expr));
    const alertNames = metricNamesIn([readFileSync(ALERTS_FILE, 'utf8')]);
    expect(dashboardNames.length).toBeGreaterThan(15);
    expect(dashboardNames.filter((name) => !known(name))).toEqual([]);
    expect(alertNames.filter((name) => !known(name))).toEqual([]);
    expect(dashboardProblems(DASHBOARD)).toEqual([]);

    // The operators' table of metrics (docs/operators.md, "Monitoring") names every family the apps
    // export (beyond prom-client's process and Node.js defaults), and only those.
    const page = readFileSync(`${ROOT}docs/operators.md`, 'utf8');
    const start = page.indexOf('## Monitoring');
    const table = page.slice(start, page.indexOf('Decisions where the issue is silent', start));
    const documented = metricNamesIn([table]).filter((name) => !name.endsWith('_'));
    const ours = [...exported.keys()].filter((name) => !/^vt_(process|nodejs)_/.test(name)).sort();
    expect(documented).toEqual(ours);
  });

  it('Prometheus scrapes every app, loads the alert rules, and answers every dashboard query with data', async () => {
    // At least two scrapes after the traffic, so rates have something to compare.
    await new Promise((r) => setTimeout(r, 3000));
    const { groups } = await prometheusApi<{
      groups: { rules: { name: string; health: string; lastError?: string }[] }[];
    }>('/api/v1/rules');
    const rules = groups.flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThanOrEqual(8);
    expect(rules.filter((r) => r.health !== 'ok')).toEqual([]);

    const empty: string[] = [];
    for (const { panel, expr } of dashboardExpressions(DASHBOARD)) {
      const query = expr.replaceAll('$__rate_interval', '2m');
      const data = await prometheusApi<{ result: unknown[] }>(`/api/v1/query?query=${encodeURIComponent(query)}`);
      if (data.result.length === 0) empty.push(`${panel}: ${expr}`);
    }
    expect(empty).toEqual([]);

    // The quiet property's "Nothing arriving", counted by the gateway, makes the alert pending
    // (it fires after its 10 minutes).
    const alerts = await until('the alert pending', async () => {
      const { alerts } = await prometheusApi<{ alerts: { labels: { alertname: string }; state: string }[] }>(
        '/api/v1/alerts',
      );
      return alerts.some((a) => a.labels.alertname === 'VtCrawlConnectionNothingArriving') && alerts;
    });
    expect(alerts.find((a) => a.labels.alertname === 'VtCrawlConnectionNothingArriving')?.state).toBe('pending');
    expect(alerts.filter((a) => a.labels.alertname === 'VtAppDown')).toEqual([]);
  }, 60_000);
});
