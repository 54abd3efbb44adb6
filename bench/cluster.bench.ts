// pnpm bench:cluster — two gateways and two crawl workers on a Redis Cluster, with exact counts.
//
// Starts a Redis Cluster of three masters and three replicas on loopback, and a standalone Redis
// of its own for the baseline, on a scratch database. Generates the crawl traffic of several
// properties (the vendored generator, a seed per property: AI-crawler, AI-referred and ordinary
// lines, some broken, with each property's ground truth), then, in the same run, sends the same
// batches from concurrent senders through:
//   - the cluster layout: TWO ingest-gateway and TWO crawl-worker processes with
//     REDIS_CLUSTER_NODES and QUEUE_SHARDS (4), the senders split across both gateways;
//   - the baseline: ONE gateway and ONE crawl worker on the one standalone Redis.
// Each layout waits for its workers to store every kept event and compares each property's daily
// counts in Postgres (hits by crawler, verified hits by crawler, referred visits by platform, raw
// events) with the truth: it prints "exact" or every difference, and exits 1 unless both are exact.
// It prints lines/s (accepted, and end to end), the CPU per line of the gateways and of the workers
// (/proc), of Redis (INFO's used_cpu of every node), of the Postgres backends serving this database
// (/proc of pg_stat_activity's pids), Redis commands and retained memory per batch, and Postgres
// rows inserted and updated and transactions per batch (pg_stat_database of this database).
// Options: --lines N (1000000 over all properties), --properties N (8), --senders N (4), --shards N (4),
// --batch N (10000 lines per batch: smaller batches show what a batch costs beside its lines).
import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parsePublishedRanges } from '@vt/attribution';
import { deriveCrawlToken } from '@vt/credentials';
import type { PrismaClient } from '@vt/db';
import { GENERATOR } from '@vt/test-support/access-log';
import { freePort } from '@vt/test-support/ports';
import { startRedis, startRedisCluster } from '@vt/test-support/redis-cluster';
import {
  backendCpu,
  backendCpuUsed,
  cpuSecondsOf,
  createBenchEnvironment,
  databaseStats,
  log,
  redisInfo,
  sleep,
  waitFor,
} from './support.ts';

const { values: opts } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    properties: { type: 'string', default: '8' },
    senders: { type: 'string', default: '4' },
    shards: { type: 'string', default: '4' },
    batch: { type: 'string', default: '10000' },
  },
});
const LINES = Number(opts.lines);
const PROPERTIES = Number(opts.properties);
const SENDERS = Number(opts.senders);
const SHARDS = Number(opts.shards);
const BATCH = Number(opts.batch);
const SECRET = randomBytes(32).toString('hex');

interface Truth {
  received: number;
  kept: number;
  crawlerHits: Record<string, number>;
  verifiedHits: Record<string, number>;
  referrals: Record<string, number>;
}

/** One property's share of the traffic: its batches and what they must leave in Postgres. */
interface Traffic {
  batches: Buffer[];
  truth: Truth;
}

/** What a layout runs: its gateways' and workers' count and the Redis settings they share. */
interface Layout {
  name: string;
  processes: number;
  env: Record<string, string>;
  /** The Redis servers behind the layout (every node of a cluster), for INFO's CPU and commands. */
  redisPorts: number[];
  /** The masters among them: what a shard holds in memory (a replica holds a copy of it). */
  masterPorts: number[];
}

interface Figures {
  layout: string;
  lines: number;
  kept: number;
  batches: number;
  acceptedSeconds: number;
  endToEndSeconds: number;
  cpu: { gateways: number; workers: number; redis: number; postgres: number };
  redis: { commands: number; retainedBytes: number };
  postgres: { inserted: number; updated: number; commits: number; bytesPerEvent: number };
  differences: string[];
}

function generate(dir: string): { traffic: Traffic[]; rangesDir: string } {
  const rangesDir = join(dir, 'ranges');
  const traffic = Array.from({ length: PROPERTIES }, (_, p) => {
    const out = join(dir, `property-${p}`);
    execFileSync(process.execPath, [
      GENERATOR,
      ...['--lines', String(Math.ceil(LINES / PROPERTIES)), '--batch', String(BATCH)],
      ...['--out-dir', out, '--truth', join(dir, `truth-${p}.json`), '--seed', String(31 + p)],
      ...(p === 0 ? ['--ranges-out', rangesDir] : []),
    ]);
    return {
      batches: readdirSync(out)
        .sort()
        .map((f) => readFileSync(join(out, f))),
      truth: JSON.parse(readFileSync(join(dir, `truth-${p}.json`), 'utf8')) as Truth,
    };
  });
  return { traffic, rangesDir };
}

/** Differences between a property's stored figures and its truth; empty when exact. */
async function compare(db: PrismaClient, propertyId: string, truth: Truth, label: string): Promise<string[]> {
  const byCrawler = await db.crawlerDailyCount.groupBy({
    by: ['crawler'],
    where: { propertyId },
    _sum: { hits: true },
  });
  const verified = await db.crawlerDailyCount.groupBy({
    by: ['crawler'],
    where: { propertyId, verification: 'verified' },
    _sum: { hits: true },
  });
  const referrals = await db.aiReferralDailyCount.groupBy({
    by: ['platform'],
    where: { propertyId },
    _sum: { visits: true },
  });
  const events = await db.crawlEvent.count({ where: { propertyId } });
  const differences: string[] = [];
  const check = (what: string, stored: Record<string, number>, expected: Record<string, number>) => {
    for (const key of new Set([...Object.keys(stored), ...Object.keys(expected)])) {
      if ((stored[key] ?? 0) !== (expected[key] ?? 0))
        differences.push(`${label} ${what} ${key}: stored ${stored[key] ?? 0}, sent ${expected[key] ?? 0}`);
    }
  };
  check('hits', Object.fromEntries(byCrawler.map((r) => [r.crawler, r._sum.hits ?? 0])), truth.crawlerHits);
  check('verified hits', Object.fromEntries(verified.map((r) => [r.crawler, r._sum.hits ?? 0])), truth.verifiedHits);
  check('referred visits', Object.fromEntries(referrals.map((r) => [r.platform, r._sum.visits ?? 0])), truth.referrals);
  check('raw events', { kept: events }, { kept: truth.kept });
  return differences;
}

async function stop(children: ChildProcess[]) {
  await Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
    ),
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'vt-bench-cluster-'));
  log(`generating ${LINES} lines for ${PROPERTIES} properties in batches of ${BATCH} …`);
  const { traffic, rangesDir } = generate(dir);
  const ranges = readdirSync(rangesDir).map((f) => ({
    operator: f.replace(/\.json$/, ''),
    ...parsePublishedRanges(JSON.parse(readFileSync(join(rangesDir, f), 'utf8'))),
  }));

  log('starting a Redis Cluster (3 masters, 3 replicas) and a standalone Redis on loopback …');
  const cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  const single = await startRedis();
  // The bench environment's Redis (its prefix, its clean-up) is the standalone one: the shared
  // Redis of the machine would mix other runs' commands into INFO's figures.
  process.env.BENCH_REDIS_URL = single.url;
  const bench = await createBenchEnvironment();
  const { db, runId } = bench;
  const database = new URL(bench.databaseUrl).pathname.slice(1);
  for (const r of ranges) {
    await db.crawlerIpRangeSet.create({
      data: {
        operator: r.operator,
        prefixes: r.prefixes,
        creationTime: r.creationTime,
        takenAt: new Date(),
        source: 'bench fixture',
      },
    });
  }

  const running: ChildProcess[] = [];
  const runLayout = async (layout: Layout): Promise<Figures> => {
    const team = await db.team.create({ data: { name: layout.name, slug: `bench-${runId}-${layout.processes}` } });
    const newProperty = (name: string) =>
      db.property.create({
        data: { teamId: team.id, name, domain: 'example.com', plan: 'scale', brandTerms: ['Bench'] },
      });
    const properties = await Promise.all(traffic.map((_, p) => newProperty(`Bench ${p}`)));
    const warmUp = await newProperty('Warm-up');

    const gateways: { child: ChildProcess; port: number }[] = [];
    const workers: { child: ChildProcess; port: number }[] = [];
    for (let i = 0; i < layout.processes; i++) {
      const [gatewayPort, workerPort] = [await freePort(), await freePort()];
      const env = { ...layout.env, CRAWL_TOKEN_SECRET: SECRET };
      gateways.push({
        child: bench.start(['apps/ingest-gateway/src/main.ts'], { ...env, INGEST_GATEWAY_PORT: String(gatewayPort) }),
        port: gatewayPort,
      });
      workers.push({
        child: bench.start(['apps/crawl-worker/src/main.ts'], {
          ...env,
          CRAWL_WORKER_METRICS_PORT: String(workerPort),
        }),
        port: workerPort,
      });
    }
    const children = [...gateways, ...workers].map((app) => app.child);
    running.push(...children);
    for (const app of [...gateways, ...workers]) await waitFor(`http://127.0.0.1:${app.port}/readyz`);

    const post = async (gatewayPort: number, property: { id: string; crawlTokenVersion: number }, body: Buffer) => {
      const res = await fetch(`http://127.0.0.1:${gatewayPort}/api/ingest/crawl/${property.id}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${deriveCrawlToken(SECRET, property.id, property.crawlTokenVersion)}`,
          'content-type': 'application/x-ndjson',
          'content-encoding': 'gzip',
        },
        body,
      });
      const answer = (await res.json()) as { received: number; kept: number };
      if (res.status !== 202) throw new Error(`${layout.name}: ${res.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const storedEvents = async (ids: string[]) => db.crawlEvent.count({ where: { propertyId: { in: ids } } });
    const waitForEvents = async (ids: string[], expected: number) => {
      const deadline = performance.now() + 300_000;
      for (;;) {
        const n = await storedEvents(ids);
        if (n >= expected) return;
        if (performance.now() > deadline) throw new Error(`${layout.name}: workers stored ${n} of ${expected}`);
        await sleep(100);
      }
    };

    // Warm-up (JIT, pools, every worker's first jobs): a few batches through every gateway, on a
    // property of its own, stored before anything is measured.
    let warmKept = 0;
    for (const [i, gateway] of gateways.entries()) {
      for (const batch of traffic[i % traffic.length]!.batches.slice(0, 4)) {
        warmKept += (await post(gateway.port, warmUp, batch)).kept;
      }
    }
    await waitForEvents([warmUp.id], warmKept);
    // Postgres 15 flushes a backend's counters to pg_stat_database when it has been idle 10 s.
    await sleep(11_000);

    const cpuOf = (apps: { child: ChildProcess }[]) => apps.reduce((sum, app) => sum + cpuSecondsOf(app.child.pid!), 0);
    const before = {
      gateways: cpuOf(gateways),
      workers: cpuOf(workers),
      redis: await redisInfo(layout.redisPorts),
      memory: (await redisInfo(layout.masterPorts)).memory,
      backends: await backendCpu(db, database),
      stats: await databaseStats(db, database),
    };

    // Every batch of every property, interleaved across properties, from concurrent senders split
    // across the gateways (sender i posts to gateway i mod n).
    const jobs: { property: (typeof properties)[number]; batch: Buffer }[] = [];
    const longest = Math.max(...traffic.map((t) => t.batches.length));
    for (let b = 0; b < longest; b++) {
      for (const [p, t] of traffic.entries()) {
        const batch = t.batches[b];
        if (batch) jobs.push({ property: properties[p]!, batch });
      }
    }
    let next = 0;
    let received = 0;
    let kept = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SENDERS }, async (_, sender) => {
        const gateway = gateways[sender % gateways.length]!;
        for (let i = next++; i < jobs.length; i = next++) {
          const answer = await post(gateway.port, jobs[i]!.property, jobs[i]!.batch);
          received += answer.received;
          kept += answer.kept;
        }
      }),
    );
    const acceptedSeconds = (performance.now() - started) / 1000;
    const ids = properties.map((p) => p.id);
    await waitForEvents(ids, kept);
    const endToEndSeconds = (performance.now() - started) / 1000;
    const after = {
      gateways: cpuOf(gateways),
      workers: cpuOf(workers),
      redis: await redisInfo(layout.redisPorts),
      memory: (await redisInfo(layout.masterPorts)).memory,
      backends: await backendCpu(db, database),
    };
    // Nothing late, nothing twice: a second after the last event, the counts are compared.
    await sleep(1000);
    const differences: string[] = [];
    for (const [p, property] of properties.entries()) {
      differences.push(...(await compare(db, property.id, traffic[p]!.truth, `property ${p}`)));
    }
    const sentLines = traffic.reduce((sum, t) => sum + t.truth.received, 0);
    if (received !== sentLines) differences.push(`gateways answered received ${received}, sent ${sentLines}`);

    // The apps' exit flushes their backends' counters; then the database's figures are read.
    await stop(children);
    await sleep(1000);
    const stats = await databaseStats(db, database);
    // What a stored raw event takes on disk, indexes included: every day partition of crawl_events
    // over its rows (both layouts' and the warm-ups' events: the same traffic).
    const [size] = await db.$queryRaw<{ bytes: bigint; rows: bigint }[]>`
      SELECT (SELECT coalesce(sum(pg_total_relation_size(inhrelid)), 0) FROM pg_inherits
                WHERE inhparent = 'crawl_events'::regclass)::bigint AS bytes,
             (SELECT count(*) FROM crawl_events)::bigint AS rows`;
    return {
      layout: layout.name,
      lines: received,
      kept,
      batches: jobs.length,
      acceptedSeconds,
      endToEndSeconds,
      cpu: {
        gateways: after.gateways - before.gateways,
        workers: after.workers - before.workers,
        redis: after.redis.cpu - before.redis.cpu,
        postgres: backendCpuUsed(before.backends, after.backends),
      },
      redis: {
        commands: after.redis.commands - before.redis.commands,
        retainedBytes: after.memory - before.memory,
      },
      postgres: {
        inserted: stats.inserted - before.stats.inserted,
        updated: stats.updated - before.stats.updated,
        commits: stats.commits - before.stats.commits,
        bytesPerEvent: Number(size?.bytes ?? 0) / Math.max(1, Number(size?.rows ?? 0)),
      },
      differences,
    };
  };

  let exact = false;
  try {
    const clusterPrefix = `{vt-bench-${runId}-cluster}`;
    const results = [
      await runLayout({
        name: `cluster: 2 gateways + 2 crawl workers, QUEUE_SHARDS=${SHARDS}`,
        processes: 2,
        env: { REDIS_CLUSTER_NODES: cluster.nodesEnv, QUEUE_SHARDS: String(SHARDS), QUEUE_PREFIX: clusterPrefix },
        redisPorts: cluster.nodes.map((node) => node.port),
        // startRedisCluster creates the masters first.
        masterPorts: cluster.nodes.slice(0, 3).map((node) => node.port),
      }),
      await runLayout({
        name: 'baseline: 1 gateway + 1 crawl worker, one Redis',
        processes: 1,
        env: {},
        redisPorts: [single.port],
        masterPorts: [single.port],
      }),
    ];
    exact = results.every((r) => r.differences.length === 0);
    report(results);
  } finally {
    await bench.cleanUp(running);
    await cluster.stop();
    await single.stop();
  }
  if (!exact) process.exitCode = 1;
}

function report(results: Figures[]) {
  const n = (value: number, digits = 0) =>
    value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const micros = (seconds: number, per: number) => n((seconds / per) * 1e6, 2);
  log('');
  log(
    `crawl ingest, ${PROPERTIES} properties, ${results[0]?.batches} gzip NDJSON batches of ${BATCH} lines, ${SENDERS} concurrent senders`,
  );
  for (const r of results) {
    log(`${r.layout}`);
    log(
      `  counts             ${r.differences.length === 0 ? 'exact' : `${r.differences.length} DIFFERENCES`} (${n(r.lines)} lines, ${n(r.kept)} kept: hits and verified hits by crawler, referred visits by platform, raw events, per property)`,
    );
    for (const difference of r.differences) log(`    ${difference}`);
    log(
      `  throughput         ${n(r.lines / r.acceptedSeconds)} lines/s accepted (${r.acceptedSeconds.toFixed(2)} s), ${n(r.lines / r.endToEndSeconds)} lines/s until the workers stored the last event (${r.endToEndSeconds.toFixed(2)} s)`,
    );
    log(
      `  CPU µs per line    gateways ${micros(r.cpu.gateways, r.lines)}, crawl workers ${micros(r.cpu.workers, r.lines)}, Redis ${micros(r.cpu.redis, r.lines)}, Postgres ${micros(r.cpu.postgres, r.lines)}; all ${micros(r.cpu.gateways + r.cpu.workers + r.cpu.redis + r.cpu.postgres, r.lines)}`,
    );
    log(
      `  per batch          crawl workers ${micros(r.cpu.workers, r.batches)} µs CPU (${micros(r.cpu.workers, r.kept)} µs per kept line); Redis ${n(r.redis.commands / r.batches, 1)} commands, ${n(r.redis.retainedBytes / r.batches)} bytes more held by the masters (completed jobs are kept: removeOnComplete); Postgres ${n(r.postgres.inserted / r.batches, 1)} rows inserted, ${n(r.postgres.updated / r.batches, 1)} updated, ${n(r.postgres.commits / r.batches, 1)} commits; ${n(r.postgres.bytesPerEvent)} bytes on disk per raw event`,
    );
  }
  const [clustered, baseline] = results;
  if (clustered && baseline) {
    log(
      `cluster / baseline ${((clustered.lines / clustered.endToEndSeconds / (baseline.lines / baseline.endToEndSeconds)) * 100).toFixed(0)} % of the baseline's end-to-end lines/s`,
    );
  }
  log(
    'NOTE: two cores cannot show throughput growth. Both layouts share the same 2 cores with the senders and the Redis and Postgres servers, so more processes add no CPU: a ratio above 100 % only says one gateway process alone did not keep both cores busy, not that a second one scales. What this run shows is exact counts across two gateways, two workers and the shards, and what a line costs in each layout; throughput grows with cores (docs/operators.md, "Capacity plan").',
  );
}

await main();
