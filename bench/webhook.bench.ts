// pnpm bench:webhook — signed leads from concurrent senders against one gateway process.
//
// Prints accepted leads/s and p50/p99 latency, and, in the same run with the same load generator,
// two floors: the rate of a bare express route returning a constant JSON body (the framework floor)
// and that of the required-work floor (bench/webhook-floor.ts: bare express doing only the per-lead
// work the spec requires, issue 31's target: the gateway at >= 75 % of it), the three measured in
// alternating 2 s rounds, and each process's CPU time per request. Then waits
// for the lead worker and checks in Postgres that every accepted lead was stored exactly once.
// Then what a lead costs in each durability mode, side by side: a gateway with REDIS_DURABILITY=fast and
// one with replicated (a WAIT per lead), both on a Redis master with one replica on loopback, loaded in
// alternating rounds with a lead worker running, each round drained and checked: leads/s, latency, and
// the CPU per lead of the gateway, the lead worker, the Redis master and the database's Postgres
// backends, with Postgres rows per lead; medians of the rounds.
// Options: --seconds N (10), --concurrency N (32), --log-level L (the gateway's LOG_LEVEL, warn: at info
// it also writes its access line per request), --mode-rounds N (3; 0 skips the durability modes),
// --mode-seconds N (4).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { deriveWebhookSecret, signWebhookPayload } from '@vt/credentials';
import { withinTag } from '@vt/redis';
import { freePort } from '@vt/test-support/ports';
import { startRedisWithReplica } from '@vt/test-support/redis-cluster';
import { type LoadResult, runInterleaved, runLoad } from './http-load.ts';
import {
  backendCpu,
  backendCpuUsed,
  cpuSeconds,
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
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '32' },
    'log-level': { type: 'string', default: 'warn' },
    'mode-rounds': { type: 'string', default: '3' },
    'mode-seconds': { type: 'string', default: '4' },
  },
});
const SECONDS = Number(opts.seconds);
const CONCURRENCY = Number(opts.concurrency);
const SIGNING_KEY = randomBytes(32).toString('hex');
// Ports the system hands out: other benches may run on the same machine at the same time.
const [BARE_PORT, FLOOR_PORT, GATEWAY_PORT, WORKER_PORT] = [
  await freePort(),
  await freePort(),
  await freePort(),
  await freePort(),
];
/** Leads signed before the measured run: more than a 2-core machine sends in the warm-up and the run. */
const PREPARED_LEADS = 40_000 + 8_000 * SECONDS;

const bench = await createBenchEnvironment();
const { db, runId, start, queuePrefix } = bench;
const team = await db.team.create({ data: { name: 'Bench', slug: `bench-${runId}` } });
const property = await db.property.create({
  data: { teamId: team.id, name: 'Bench', domain: 'example.com', plan: 'growth' },
});
const secret = deriveWebhookSecret(SIGNING_KEY, property.id);

const bare = start(['bench/bare-express.ts', String(BARE_PORT)]);
// A queue prefix of its own (inside the run's, so the clean-up finds it): the lead worker started
// after the run must see only the gateway's leads, which it checks were stored exactly once.
const requiredWork = start(
  [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/gwprof/required-work'] : []),
    'bench/webhook-floor.ts',
    String(FLOOR_PORT),
  ],
  {
    QUEUE_PREFIX: withinTag(queuePrefix, 'floor'),
    WEBHOOK_SIGNING_KEY: SIGNING_KEY,
  },
);
const gateway = start(
  [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/gwprof'] : []),
    'apps/ingest-gateway/src/main.ts',
  ],
  {
    INGEST_GATEWAY_PORT: String(GATEWAY_PORT),
    WEBHOOK_SIGNING_KEY: SIGNING_KEY,
    LOG_LEVEL: opts['log-level'],
  },
);
// The lead worker starts after the measured window: on a 2-core machine it would otherwise take
// CPU from the gateway being measured. It then drains the queue, and the run checks every lead.
let worker: ChildProcess | undefined;
const modeProcesses: ChildProcess[] = [];
try {
  await waitFor(`http://127.0.0.1:${BARE_PORT}/bare`);
  await waitFor(`http://127.0.0.1:${FLOOR_PORT}/`);
  await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/readyz`);

  const referrers = ['https://chatgpt.com/', 'https://www.perplexity.ai/', 'https://www.google.com/', ''];
  let n = 0;
  const makeLead = () => {
    n++;
    const id = `bench-${runId}-${n}`;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const referrer = referrers[n % referrers.length];
    const body = Buffer.from(
      JSON.stringify({
        contact: `lead${n}@example.com`,
        email: `lead${n}@example.com`,
        landingPath: '/pricing',
        ...(referrer ? { referrer } : {}),
      }),
    );
    return {
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'x-webhook-id': id,
        'x-webhook-timestamp': timestamp,
        'x-webhook-signature': signWebhookPayload(secret, id, timestamp, body),
      },
      body,
    };
  };
  // Signed before the run: the generator's own HMAC and JSON per lead would otherwise take CPU from
  // the gateway on a small machine, where the floor's generator sends a constant. Every timestamp
  // stays well inside the five-minute window; past the prepared leads, leads are signed as sent.
  const prepared = Array.from({ length: PREPARED_LEADS }, makeLead);
  let nextPrepared = 0;
  let sent = 0;
  const signedLead = () => {
    sent++;
    return nextPrepared < prepared.length ? (prepared[nextPrepared++] as ReturnType<typeof makeLead>) : makeLead();
  };
  // The required-work floor's leads: signed alike, their own ids, not counted among the gateway's.
  const floorLeads = Array.from({ length: PREPARED_LEADS }, makeLead);
  let nextFloorLead = 0;
  const floorLead = () => floorLeads[nextFloorLead++] ?? makeLead();
  const constant = { headers: { 'content-type': 'application/json', 'content-length': '2' }, body: Buffer.from('{}') };

  // Warm all three up, then measure the floors and the webhook with the same generator.
  const leadPath = `/api/webhooks/leads/${property.id}`;
  await runLoad({ port: BARE_PORT, path: '/bare', method: 'POST' }, CONCURRENCY, 2, () => constant);
  await runLoad({ port: FLOOR_PORT, path: leadPath, method: 'POST' }, CONCURRENCY, 2, floorLead);
  await runLoad(
    { port: GATEWAY_PORT, path: `/api/webhooks/leads/${property.id}`, method: 'POST' },
    CONCURRENCY,
    2,
    signedLead,
  );
  const before = await db.lead.count();
  const beforeSent = sent;
  // Interleaved in 2 s rounds, so a drift in the machine's speed falls on both alike.
  const [bareCpuBefore, requiredCpuBefore, gatewayCpuBefore] = [
    cpuSeconds(bare),
    cpuSeconds(requiredWork),
    cpuSeconds(gateway),
  ];
  const [floor, required, webhook] = (await runInterleaved(
    [
      { target: { port: BARE_PORT, path: '/bare', method: 'POST' }, next: () => constant },
      { target: { port: FLOOR_PORT, path: leadPath, method: 'POST' }, next: floorLead },
      { target: { port: GATEWAY_PORT, path: `/api/webhooks/leads/${property.id}`, method: 'POST' }, next: signedLead },
    ],
    CONCURRENCY,
    SECONDS,
  )) as [LoadResult, LoadResult, LoadResult];
  const bareCpu = perRequestMicros(bareCpuBefore, cpuSeconds(bare), floor.requests);
  const requiredCpu = perRequestMicros(requiredCpuBefore, cpuSeconds(requiredWork), required.requests);
  const gatewayCpu = perRequestMicros(gatewayCpuBefore, cpuSeconds(gateway), webhook.requests);
  const accepted = webhook.statuses[200] ?? 0;
  worker = start(['apps/lead-worker/src/main.ts'], { LEAD_WORKER_METRICS_PORT: String(WORKER_PORT) });
  await waitFor(`http://127.0.0.1:${WORKER_PORT}/readyz`);
  // Every lead sent so far (warm-up included) should be stored once: wait for the worker.
  let stored = 0;
  const waitStart = performance.now();
  for (;;) {
    stored = await db.lead.count();
    if (stored >= sent || performance.now() - waitStart > 60_000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const distinctEvents = (await db.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT event_id)::int AS n FROM leads`)[0]
    ?.n;
  const counted = (await db.aiLeadDailyCount.aggregate({ _sum: { leads: true } }))._sum.leads ?? 0;
  const classified = await db.lead.count({ where: { matched: true } });

  log('');
  log(
    `lead webhook, ${CONCURRENCY} concurrent senders, ${SECONDS} s (and ${SECONDS} s of each floor, alternating in 2 s rounds), one gateway process at LOG_LEVEL=${opts['log-level']}`,
  );
  log(
    `  accepted leads     ${Math.round(webhook.perSecond).toLocaleString('en')} /s  (${accepted} accepted of ${webhook.requests}; statuses ${JSON.stringify(webhook.statuses)})`,
  );
  log(`  latency            p50 ${webhook.p50.toFixed(1)} ms, p99 ${webhook.p99.toFixed(1)} ms`);
  log(
    `  bare express floor ${Math.round(floor.perSecond).toLocaleString('en')} /s  (p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms), same generator`,
  );
  log(
    `  required-work floor ${Math.round(required.perSecond).toLocaleString('en')} /s  (p50 ${required.p50.toFixed(1)} ms, p99 ${required.p99.toFixed(1)} ms; statuses ${JSON.stringify(required.statuses)}): body cap, HMAC, duplicate claim, one job, one log row`,
  );
  log(
    `  webhook / required-work floor ${((webhook.perSecond / required.perSecond) * 100).toFixed(0)} %  (issue 31: >= 75 %)`,
  );
  log(
    `  webhook / bare express floor  ${((webhook.perSecond / floor.perSecond) * 100).toFixed(0)} %  (issue 16: >= 60 %)`,
  );
  log(
    `  CPU per request    gateway ${gatewayCpu} µs, required-work floor ${requiredCpu} µs, bare express ${bareCpu} µs (process user + system time)`,
  );
  log(
    `  stored exactly once: ${stored === sent && distinctEvents === sent ? 'yes' : 'NO'} (${stored} leads for ${sent} sent, ${distinctEvents} distinct ids; measured run ${sent - beforeSent} sent, ${before} before)`,
  );
  log(`  AI-attributed count ${counted} = classified leads ${classified}: ${counted === classified ? 'yes' : 'NO'}`);

  await perLeadByDurability(makeLead);
} finally {
  await bench.cleanUp([bare, requiredWork, gateway, worker, ...modeProcesses]);
}

function perRequestMicros(before: number | undefined, after: number | undefined, requests: number): string {
  return before === undefined || after === undefined ? 'n/a' : (((after - before) * 1e6) / requests).toFixed(0);
}

type SignedLead = { headers: Record<string, string>; body: Buffer };

/**
 * Fast against replicated, per lead: two gateways (one per REDIS_DURABILITY) and one lead worker on
 * a Redis master with one replica, the gateways loaded in alternating rounds while the worker
 * stores; each round waits until every accepted lead is stored, so its CPU is the whole of its
 * leads' path. Prints the medians side by side and WAIT's cost per lead.
 */
async function perLeadByDurability(makeLead: () => SignedLead) {
  const rounds = Number(opts['mode-rounds']);
  const seconds = Number(opts['mode-seconds']);
  if (rounds === 0) return; // --mode-rounds 0: the floors only
  const redis = await startRedisWithReplica();
  const masterPort = Number(new URL(redis.masterUrl).port);
  const database = new URL(bench.databaseUrl).pathname.slice(1);
  try {
    const modes = ['fast', 'replicated'] as const;
    const gateways = new Map<(typeof modes)[number], { child: ChildProcess; port: number }>();
    for (const mode of modes) {
      const port = await freePort();
      const child = start(['apps/ingest-gateway/src/main.ts'], {
        REDIS_URL: redis.masterUrl,
        INGEST_GATEWAY_PORT: String(port),
        WEBHOOK_SIGNING_KEY: SIGNING_KEY,
        REDIS_DURABILITY: mode,
      });
      modeProcesses.push(child);
      gateways.set(mode, { child, port });
    }
    const workerPort = await freePort();
    const leadWorker = start(['apps/lead-worker/src/main.ts'], {
      REDIS_URL: redis.masterUrl,
      LEAD_WORKER_METRICS_PORT: String(workerPort),
    });
    modeProcesses.push(leadWorker);
    for (const port of [...[...gateways.values()].map((g) => g.port), workerPort])
      await waitFor(`http://127.0.0.1:${port}/readyz`);

    const target = (port: number) => ({ port, path: `/api/webhooks/leads/${property.id}`, method: 'POST' });
    let expected = await db.lead.count();
    const waitForStored = async () => {
      const deadline = performance.now() + 120_000;
      for (;;) {
        const stored = await db.lead.count();
        if (stored >= expected) return stored;
        if (performance.now() > deadline) throw new Error(`lead worker stored ${stored} of ${expected}`);
        await sleep(100);
      }
    };
    // Warm-up of both gateways and the worker, uncounted.
    for (const mode of modes) {
      const warm = await runLoad(target(gateways.get(mode)!.port), CONCURRENCY, 2, makeLead);
      expected += warm.statuses[200] ?? 0;
    }
    await waitForStored();
    // Postgres 15 flushes an idle backend's counters to pg_stat_database after 10 s.
    await sleep(11_000);
    let stats = await databaseStats(db, database);

    type Round = {
      perSecond: number;
      p50: number;
      p99: number;
      cpu: Record<string, number>;
      rows: number;
      other: number;
    };
    const results = new Map<(typeof modes)[number], Round[]>(modes.map((mode) => [mode, []]));
    for (let round = 0; round < rounds; round++) {
      for (const mode of modes) {
        const gateway = gateways.get(mode)!;
        // Signed before the round, so the senders' HMAC does not take CPU from what is measured.
        const prepared = Array.from({ length: 6_000 * seconds }, makeLead);
        let next = 0;
        const lead = () => prepared[next++] ?? makeLead();
        const before = {
          gateway: cpuSecondsOf(gateway.child.pid!),
          worker: cpuSecondsOf(leadWorker.pid!),
          redis: await redisInfo([masterPort]),
          backends: await backendCpu(db, database),
          stats,
        };
        const load = await runLoad(target(gateway.port), CONCURRENCY, seconds, lead);
        const accepted = load.statuses[200] ?? 0;
        expected += accepted;
        await waitForStored();
        const after = {
          gateway: cpuSecondsOf(gateway.child.pid!),
          worker: cpuSecondsOf(leadWorker.pid!),
          redis: await redisInfo([masterPort]),
          backends: await backendCpu(db, database),
        };
        await sleep(11_000);
        stats = await databaseStats(db, database);
        const micros = (used: number) => (used / accepted) * 1e6;
        results.get(mode)!.push({
          perSecond: accepted / load.seconds,
          p50: load.p50,
          p99: load.p99,
          cpu: {
            gateway: micros(after.gateway - before.gateway),
            worker: micros(after.worker - before.worker),
            redis: micros(after.redis.cpu - before.redis.cpu),
            postgres: micros(backendCpuUsed(before.backends, after.backends)),
            commands: (after.redis.commands - before.redis.commands) / accepted,
          },
          rows: (stats.inserted + stats.updated - before.stats.inserted - before.stats.updated) / accepted,
          other: load.requests - accepted,
        });
      }
    }
    const stored = await db.lead.count();
    const distinct = (await db.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT event_id)::int AS n FROM leads`)[0]?.n;

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const of = (mode: (typeof modes)[number], pick: (r: Round) => number) => median(results.get(mode)!.map(pick));
    const row = (label: string, pick: (r: Round) => number, digits = 0) =>
      log(
        `  ${label.padEnd(34)} ${of('fast', pick).toFixed(digits).padStart(10)} ${of('replicated', pick).toFixed(digits).padStart(12)}`,
      );
    log('');
    log(
      `per lead by REDIS_DURABILITY: one gateway per mode and one lead worker on a Redis master with one replica (loopback), ${CONCURRENCY} concurrent senders, ${rounds} alternating rounds of ${seconds} s, medians`,
    );
    log(`  ${''.padEnd(34)} ${'fast'.padStart(10)} ${'replicated'.padStart(12)}`);
    row('accepted leads/s', (r) => r.perSecond);
    row('latency p50 ms', (r) => r.p50, 2);
    row('latency p99 ms', (r) => r.p99, 2);
    row('gateway CPU µs per lead', (r) => r.cpu.gateway!);
    row('lead worker CPU µs per lead', (r) => r.cpu.worker!);
    row('gateway + lead worker µs per lead', (r) => r.cpu.gateway! + r.cpu.worker!);
    row('Redis master CPU µs per lead', (r) => r.cpu.redis!);
    row('Redis commands per lead', (r) => r.cpu.commands!, 1);
    row('Postgres backends CPU µs per lead', (r) => r.cpu.postgres!);
    row('Postgres rows written per lead', (r) => r.rows, 1);
    row('answers other than 200', (r) => r.other);
    log(
      `  WAIT's cost per lead: gateway ${(of('replicated', (r) => r.cpu.gateway!) - of('fast', (r) => r.cpu.gateway!)).toFixed(0)} µs CPU, p50 ${(of('replicated', (r) => r.p50) - of('fast', (r) => r.p50)).toFixed(2)} ms (replicated minus fast; rounds: fast ${results
        .get('fast')!
        .map((r) => r.cpu.gateway!.toFixed(0))
        .join(', ')} µs, replicated ${results
        .get('replicated')!
        .map((r) => r.cpu.gateway!.toFixed(0))
        .join(', ')} µs)`,
    );
    log(
      `  stored exactly once: ${stored === expected && distinct === expected ? 'yes' : 'NO'} (${stored} leads, ${distinct} distinct ids, ${expected} accepted)`,
    );
    if (stored !== expected || distinct !== expected) process.exitCode = 1;
  } finally {
    for (const child of modeProcesses) child.kill('SIGTERM');
    await sleep(1500);
    await redis.stop();
  }
}
