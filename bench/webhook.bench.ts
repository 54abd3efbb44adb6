// pnpm bench:webhook — signed leads from concurrent senders against one gateway process.
//
// Prints accepted leads/s and p50/p99 latency, and, in the same run with the same load generator,
// the rate of a bare express route returning a constant JSON body (the framework floor), the two
// measured in alternating 2 s rounds, and each process's CPU time per request. Then waits
// for the lead worker and checks in Postgres that every accepted lead was stored exactly once.
// Options: --seconds N (10), --concurrency N (32), --log-level L (the gateway's LOG_LEVEL, warn: at info
// it also writes its access line per request).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { deriveWebhookSecret, signWebhookPayload } from '@vt/credentials';
import { type LoadResult, runInterleaved, runLoad } from './http-load.ts';
import { cpuSeconds, createBenchEnvironment, log, waitFor } from './support.ts';

const { values: opts } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '32' },
    'log-level': { type: 'string', default: 'warn' },
  },
});
const SECONDS = Number(opts.seconds);
const CONCURRENCY = Number(opts.concurrency);
const SIGNING_KEY = randomBytes(32).toString('hex');
const [BARE_PORT, GATEWAY_PORT, WORKER_PORT] = [3991, 3992, 3993];
/** Leads signed before the measured run: more than a 2-core machine sends in the warm-up and the run. */
const PREPARED_LEADS = 40_000 + 8_000 * SECONDS;

const bench = await createBenchEnvironment();
const { db, runId, start } = bench;
const team = await db.team.create({ data: { name: 'Bench', slug: `bench-${runId}` } });
const property = await db.property.create({
  data: { teamId: team.id, name: 'Bench', domain: 'example.com', plan: 'growth' },
});
const secret = deriveWebhookSecret(SIGNING_KEY, property.id);

const bare = start(['bench/bare-express.ts', String(BARE_PORT)]);
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
try {
  await waitFor(`http://127.0.0.1:${BARE_PORT}/bare`);
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
  const constant = { headers: { 'content-type': 'application/json', 'content-length': '2' }, body: Buffer.from('{}') };

  // Warm both up, then measure the floor and the webhook with the same generator.
  await runLoad({ port: BARE_PORT, path: '/bare', method: 'POST' }, CONCURRENCY, 2, () => constant);
  await runLoad(
    { port: GATEWAY_PORT, path: `/api/webhooks/leads/${property.id}`, method: 'POST' },
    CONCURRENCY,
    2,
    signedLead,
  );
  const before = await db.lead.count();
  const beforeSent = sent;
  // Interleaved in 2 s rounds, so a drift in the machine's speed falls on both alike.
  const [bareCpuBefore, gatewayCpuBefore] = [cpuSeconds(bare), cpuSeconds(gateway)];
  const [floor, webhook] = (await runInterleaved(
    [
      { target: { port: BARE_PORT, path: '/bare', method: 'POST' }, next: () => constant },
      { target: { port: GATEWAY_PORT, path: `/api/webhooks/leads/${property.id}`, method: 'POST' }, next: signedLead },
    ],
    CONCURRENCY,
    SECONDS,
  )) as [LoadResult, LoadResult];
  const bareCpu = perRequestMicros(bareCpuBefore, cpuSeconds(bare), floor.requests);
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
    `lead webhook, ${CONCURRENCY} concurrent senders, ${SECONDS} s (and ${SECONDS} s of the floor, alternating), one gateway process at LOG_LEVEL=${opts['log-level']}`,
  );
  log(
    `  accepted leads     ${Math.round(webhook.perSecond).toLocaleString('en')} /s  (${accepted} accepted of ${webhook.requests}; statuses ${JSON.stringify(webhook.statuses)})`,
  );
  log(`  latency            p50 ${webhook.p50.toFixed(1)} ms, p99 ${webhook.p99.toFixed(1)} ms`);
  log(
    `  bare express floor ${Math.round(floor.perSecond).toLocaleString('en')} /s  (p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms), same generator`,
  );
  log(`  webhook / floor    ${((webhook.perSecond / floor.perSecond) * 100).toFixed(0)} %  (issue 16: >= 60 %)`);
  log(`  CPU per request    gateway ${gatewayCpu} µs, bare express ${bareCpu} µs (process user + system time)`);
  log(
    `  stored exactly once: ${stored === sent && distinctEvents === sent ? 'yes' : 'NO'} (${stored} leads for ${sent} sent, ${distinctEvents} distinct ids; measured run ${sent - beforeSent} sent, ${before} before)`,
  );
  log(`  AI-attributed count ${counted} = classified leads ${classified}: ${counted === classified ? 'yes' : 'NO'}`);
} finally {
  await bench.cleanUp([bare, gateway, worker]);
}

function perRequestMicros(before: number | undefined, after: number | undefined, requests: number): string {
  return before === undefined || after === undefined ? 'n/a' : (((after - before) * 1e6) / requests).toFixed(0);
}
