import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveCrawlToken, deriveWebhookSecret } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';
import { crawlBatchJob, createQueue, leadJob } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import {
  freePort,
  generateLeadTraffic,
  type LeadDelivery,
  type RunningApp,
  signedLeadHeaders,
  startApp,
  testDb,
  testEnv,
  uniqueSlug,
} from '@vt/test-support';
import { afterAll, beforeAll } from 'vitest';

// What the fault suites share: a Redis of their own that can be killed, a TCP proxy in front of
// Postgres that can be cut, the apps as real processes, and senders that behave like real log
// shippers and webhook senders (retry every non-2xx answer and every broken connection, under the
// same Idempotency-Key or x-webhook-id) with the ground truth of what they sent.

/** `FAULT_PROFILE=short` (CI, `pnpm test`): fewer and shorter faults; the full profile otherwise. */
export const SHORT = process.env.FAULT_PROFILE === 'short';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A redis-server of the suite's own, with append-only persistence fsynced on every write. */
export async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'vt-fault-redis-'));
  let child: ChildProcess | undefined;
  const spawnOn = async (port: number) => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always'],
      { stdio: 'ignore' },
    );
    const exited = new Promise<false>((resolve) => child?.once('exit', () => resolve(false)));
    const probe = createProducerConnection({ redisUrl: `redis://127.0.0.1:${port}`, onError: () => {} });
    try {
      for (let i = 0; i < 100; i++) {
        // Exited at once: the port was taken after all (redis-server cannot pick one itself).
        if ((await Promise.race([exited, sleep(50).then(() => true)])) === false) return false;
        if (probe.status === 'ready' && (await probe.ping().catch(() => null)) === 'PONG') return true;
      }
      throw new Error('redis-server did not start');
    } finally {
      await closeRedisConnection(probe);
    }
  };
  let port = await freePort();
  for (let tries = 1; !(await spawnOn(port)); tries++) {
    if (tries === 5) throw new Error('no port for redis-server');
    port = await freePort();
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    /** SIGKILL: no shutdown save; only what the append-only file holds survives. */
    kill: async () => {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child?.kill('SIGKILL');
      await exited;
    },
    restart: async () => {
      if (!(await spawnOn(port))) throw new Error(`redis-server could not take port ${port} again`);
    },
    stop: async () => {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child?.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP proxy to 127.0.0.1:`targetPort`. `cut()` drops every connection and refuses new ones;
 * `freezeAfter(match)` lets client bytes through until a chunk for which `match` is true, passes
 * that chunk, then holds back everything the client sends after it (answers still come back), so
 * a process can be stopped at an exact point of its conversation.
 */
export async function startTcpProxy(targetPort: number) {
  const sockets = new Set<Socket>();
  let open = true;
  let freezeAt: ((chunk: Buffer) => boolean) | undefined;
  let frozen = false;
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (frozen) return;
      upstream.write(chunk);
      if (freezeAt?.(chunk)) frozen = true;
    });
    client.on('end', () => upstream.end());
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore: () => {
      open = true;
    },
    freezeAfter: (match: (chunk: Buffer) => boolean) => {
      freezeAt = match;
    },
    isFrozen: () => frozen,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** This run's database URL with its host and port replaced: through a proxy. */
export function databaseUrlVia(port: number): string {
  const url = new URL(testEnv.DATABASE_URL);
  url.host = `127.0.0.1:${port}`;
  return url.toString();
}

/**
 * The env of an app in a fault suite: its Redis, its queue prefix, quick recovery of killed jobs,
 * and a dead gateway's claim on a named batch lapsing in 3 s instead of 15 (what the suites wait
 * out after killing one), with a waiting attempt told to retry after 2 s instead of 10.
 */
export function faultEnv(redisUrl: string, extra: Record<string, string> = {}) {
  return {
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `{fault-${Math.random().toString(36).slice(2, 8)}}`,
    JOB_LOCK_SECONDS: '2',
    NAMED_BATCH_PENDING_SECONDS: '3',
    NAMED_BATCH_WAIT_MS: '2000',
    LOG_LEVEL: 'info',
    // As the Dockerfile and `pnpm start` run the apps (docs/operators.md, "Memory"): the load suite's memory
    // check then sees what production holds, not glibc's spare arenas for gunzip's threads.
    MALLOC_ARENA_MAX: '2',
    ...extra,
  };
}

export const startGateway = (env: Record<string, string>) =>
  startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env, 60_000);
export const startCrawlWorker = (env: Record<string, string>) =>
  startApp('apps/crawl-worker/src/main.ts', 'CRAWL_WORKER_METRICS_PORT', env, 60_000);
export const startLeadWorker = (env: Record<string, string>) =>
  startApp('apps/lead-worker/src/main.ts', 'LEAD_WORKER_METRICS_PORT', env, 60_000);

/** SIGKILL, and wait until the process is gone. */
export async function kill(app: RunningApp, signal: NodeJS.Signals = 'SIGKILL') {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return;
  app.child.kill(signal);
  await app.exited;
}

/**
 * What a fault test file shares, set up before its tests and torn down after them: the run's
 * database, its own Redis (unless `ownRedis: false`) with the env its apps run with, and every
 * process it starts (`track`) or server it opens (`onStop`), stopped at the end.
 */
export function faultSuite(options: { env?: Record<string, string>; ownRedis?: boolean } = {}) {
  const apps: RunningApp[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const suite = {
    db: testDb(),
    redis: undefined as unknown as Awaited<ReturnType<typeof startRedis>>,
    env: {} as Record<string, string>,
    track: (app: RunningApp) => {
      apps.push(app);
      return app;
    },
    onStop: (cleanup: () => Promise<void>) => {
      cleanups.push(cleanup);
    },
  };
  beforeAll(async () => {
    if (options.ownRedis === false) return;
    suite.redis = await startRedis();
    suite.env = faultEnv(suite.redis.url, options.env);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => kill(app)));
    for (const cleanup of cleanups) await cleanup();
    await suite.redis?.stop();
  });
  return suite;
}

/** A paid property with its crawl token and webhook secret. */
export async function faultProperty(db: PrismaClient, label: string) {
  const slug = uniqueSlug(label);
  const team = await db.team.create({ data: { name: slug, slug } });
  const property = await db.property.create({
    data: { teamId: team.id, name: slug, domain: 'example.com', plan: 'growth', brandTerms: [slug] },
  });
  return {
    property,
    token: deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, property.id, property.crawlTokenVersion),
    secret: deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, property.id),
  };
}

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';
const HUMAN = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** Named crawl batches: batch i holds 1 + i % 7 GPTBot hits among 20 human requests. */
export function crawlBatches(count: number, label: string) {
  const at = new Date().toISOString();
  const batches = Array.from({ length: count }, (_, i) => {
    const lines: string[] = [];
    const bots = 1 + (i % 7);
    for (let j = 0; j < 20 + bots; j++) {
      const bot = j < bots;
      lines.push(
        JSON.stringify({
          timestamp: at,
          host: 'example.com',
          path: `/${bot ? 'doc' : 'page'}/${i}/${j}`,
          userAgent: bot ? GPTBOT : HUMAN,
          statusCode: 200,
        }),
      );
    }
    return { key: `${label}-batch-${i}`, body: `${lines.join('\n')}\n`, gptHits: bots };
  });
  return { batches, truth: { gptHits: batches.reduce((n, b) => n + b.gptHits, 0) } };
}

export interface SenderStats {
  /** Answers by status; `network` for a connection that broke or was refused. */
  answers: Record<string, number>;
  /** The slowest answer (any status), ms: nothing may hang. */
  slowestMs: number;
  /** Answers that must not happen: a 4xx, a body that is not the documented JSON. */
  wrong: string[];
  /** Deliveries answered 2xx (each counted once, at its first 2xx). */
  acknowledged: number;
}

/**
 * Sends every crawl batch and every lead, `concurrency` at a time, to the gateways alive at each
 * attempt, retrying each until it is answered 2xx, as a log shipper and a webhook sender do.
 * Resolves when all are acknowledged, or rejects after `deadlineMs`.
 */
export async function sendUntilAcknowledged(options: {
  gateways: () => RunningApp[];
  propertyId: string;
  token: string;
  secret: string;
  batches: { key: string; body: string }[];
  leads: LeadDelivery[];
  concurrency: number;
  deadlineMs: number;
  /** Spacing between a sender's deliveries, to spread the load over the faults. */
  paceMs?: number;
}): Promise<SenderStats> {
  const stats: SenderStats = { answers: {}, slowestMs: 0, wrong: [], acknowledged: 0 };
  type Work = { kind: 'crawl'; key: string; body: string } | { kind: 'lead'; delivery: LeadDelivery };
  const work: Work[] = [];
  // Interleaved, so both kinds of traffic meet every fault.
  for (let i = 0; i < Math.max(options.batches.length, options.leads.length); i++) {
    const batch = options.batches[i];
    if (batch) work.push({ kind: 'crawl', ...batch });
    const delivery = options.leads[i];
    if (delivery) work.push({ kind: 'lead', delivery });
  }
  const deadline = Date.now() + options.deadlineMs;
  let turn = 0;
  const attempt = async (item: Work): Promise<boolean> => {
    const alive = options.gateways().filter((g) => g.child.exitCode === null && g.child.signalCode === null);
    if (alive.length === 0) return false;
    const gateway = alive[turn++ % alive.length]!;
    const started = Date.now();
    const request =
      item.kind === 'crawl'
        ? fetch(`${gateway.url}/api/ingest/crawl/${options.propertyId}`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${options.token}`,
              'content-type': 'application/x-ndjson',
              'idempotency-key': item.key,
            },
            body: item.body,
            signal: AbortSignal.timeout(30_000),
          })
        : fetch(`${gateway.url}/api/webhooks/leads/${options.propertyId}`, {
            method: 'POST',
            headers: signedLeadHeaders(options.secret, item.delivery),
            body: item.delivery.body,
            signal: AbortSignal.timeout(30_000),
          });
    let status: string;
    try {
      const res = await request;
      const text = await res.text();
      status = String(res.status);
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        stats.wrong.push(`${res.status} not JSON: ${text.slice(0, 200)}`);
      }
      if (res.status >= 400 && res.status < 500) stats.wrong.push(`${res.status} ${text.slice(0, 200)}`);
      if (res.status >= 500 && (!body?.reason || !body?.hint))
        stats.wrong.push(`${res.status} without reason: ${text}`);
    } catch {
      status = 'network';
    }
    stats.slowestMs = Math.max(stats.slowestMs, Date.now() - started);
    stats.answers[status] = (stats.answers[status] ?? 0) + 1;
    return status.startsWith('2');
  };
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (let item = work.shift(); item; item = work.shift()) {
        let backoff = 50;
        while (!(await attempt(item))) {
          if (Date.now() > deadline) throw new Error(`not acknowledged in time: ${JSON.stringify(stats)}`);
          await sleep(backoff);
          backoff = Math.min(backoff * 2, 1000);
        }
        stats.acknowledged++;
        if (options.paceMs) await sleep(options.paceMs);
      }
    }),
  );
  return stats;
}

/**
 * A property and the traffic a fault test sends it: SHORT ? 300 : 1,200 named crawl batches and as
 * many lead deliveries (repeats included), interleaved, with what they must leave in Postgres.
 * `send(gateways)` delivers it all to whichever of the gateways are alive, as real senders would.
 */
export async function faultTraffic(db: PrismaClient, label: string, seed: number) {
  const { property, token, secret } = await faultProperty(db, label);
  const crawl = crawlBatches(SHORT ? 300 : 1200, label);
  const leads = generateLeadTraffic({ count: SHORT ? 300 : 1200, seed });
  return {
    property,
    token,
    secret,
    crawl,
    leads,
    expected: expectedFigures(crawl, leads),
    send: (gateways: () => RunningApp[]) =>
      sendUntilAcknowledged({
        gateways,
        propertyId: property.id,
        token,
        secret,
        batches: crawl.batches,
        leads: leads.deliveries,
        concurrency: 8,
        paceMs: SHORT ? 10 : 20,
        deadlineMs: 300_000,
      }),
  };
}

/** What the database holds for a property: GPTBot hits, leads, and AI-attributed leads by platform. */
export async function storedFigures(db: PrismaClient, propertyId: string) {
  const hits = await db.crawlerDailyCount.aggregate({ where: { propertyId }, _sum: { hits: true } });
  const leads = await db.lead.count({ where: { propertyId } });
  const counted = await db.aiLeadDailyCount.groupBy({ by: ['platform'], where: { propertyId }, _sum: { leads: true } });
  return {
    gptHits: hits._sum.hits ?? 0,
    leads,
    leadsByPlatform: Object.fromEntries(counted.map((r) => [r.platform, r._sum.leads ?? 0])),
  };
}

/** The figures the traffic must leave, for `storedFigures` to equal. */
export function expectedFigures(
  crawl: ReturnType<typeof crawlBatches>,
  leads: ReturnType<typeof generateLeadTraffic>,
): Awaited<ReturnType<typeof storedFigures>> {
  return { gptHits: crawl.truth.gptHits, leads: leads.truth.leads, leadsByPlatform: leads.truth.byPlatform };
}

/**
 * Polls until the stored figures equal the expected ones and the suite's queues hold no job, then
 * reads them once more: with no job waiting, active or delayed, nothing can still be written, so
 * what is stored then is final (nothing late, nothing twice) without waiting a fixed time.
 */
export async function expectStoredExactly(
  db: PrismaClient,
  propertyId: string,
  expected: Awaited<ReturnType<typeof storedFigures>>,
  queues: { redisUrl: string; prefix: string },
  timeoutMs = 90_000,
) {
  const deadline = Date.now() + timeoutMs;
  const settled = async () => {
    const figures = await storedFigures(db, propertyId);
    if (JSON.stringify(sorted(figures)) !== JSON.stringify(sorted(expected))) return false;
    const left = await queueLeftovers(queues.redisUrl, queues.prefix);
    return [left.crawl, left.lead].every((counts) => Object.values(counts).every((n) => n === 0));
  };
  while (!(await settled()) && Date.now() < deadline) await sleep(250);
  return storedFigures(db, propertyId);
}

const sorted = (figures: Awaited<ReturnType<typeof storedFigures>>) => ({
  ...figures,
  leadsByPlatform: Object.fromEntries(Object.entries(figures.leadsByPlatform).sort()),
});

/** Jobs left in the crawl and lead queues, by state: all zero once everything is applied. */
export async function queueLeftovers(redisUrl: string, prefix: string) {
  const redis = createProducerConnection({ redisUrl, onError: () => {} });
  await new Promise((resolve) => redis.once('ready', resolve));
  const queues = [createQueue(crawlBatchJob, redis, prefix), createQueue(leadJob, redis, prefix)];
  try {
    const counts = await Promise.all(
      queues.map((q) => q.getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized', 'waiting-children')),
    );
    return { crawl: counts[0]!, lead: counts[1]! };
  } finally {
    for (const q of queues) await q.close();
    await closeRedisConnection(redis);
  }
}

export { generateLeadTraffic };

/** Where the apps of an env keep their queues, for `expectStoredExactly`. */
export const queuesOf = (redisUrl: string, env: Record<string, string>) => ({
  redisUrl,
  prefix: env.QUEUE_PREFIX ?? '',
});
