// pnpm bench:ingest — crawl ingest throughput, latency and memory, beside the in-process floor.
//
// Generates >= 1M realistic request lines (the generator vendored in packages/test-support) in gzip NDJSON
// batches of 10,000, starts one real ingest-gateway and one crawl-worker process on a scratch
// database and Redis prefix, posts every batch from 4 concurrent senders, and prints:
//   accepted lines/s, CPU seconds per million lines of the gateway, the crawl worker, Redis and
//   Postgres (from /proc), idle RSS, p50/p99 batch latency, gateway peak RSS, time until the worker has stored
//   every kept event, queue backlog 5 s after the last batch, and peak RSS under 8 concurrent
//   10 MiB bodies;
// and, on the same batches in this process, the floor: gunzip + JSON.parse + classify, no HTTP;
// and issue 31's CPU floor, gunzip + JSON.parse + one regex (the AI-agent markers) per line, measured
// in this process's CPU time before the main run and before each native round below: the gateway's
// CPU per line as a ratio to it (target <= 1.5x), a figure that holds across machines where the
// CPU per line itself varies 2.5x;
// then the same lines as Cloudflare Logpush http_requests lines (gzip NDJSON) and as Amazon Data
// Firehose deliveries of CloudFront real-time log records (gzip), each posted to its provider's
// endpoint, with the gateway's CPU per line beside the native NDJSON's (target <= 1.2x).
// Options: --lines N (default 1000000), --senders N (4), --cpu-prof DIR (the gateway's and the worker's CPU profiles),
// --durability fast|replicated (the gateway's REDIS_DURABILITY; replicated needs a Redis with a
// replica: BENCH_REDIS_URL=redis://… names it).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  AI_CRAWLER_UA_MARKERS,
  CrawlerIpIndex,
  hostOfReferrer,
  matchAiCrawler,
  parsePublishedRanges,
  platformForHost,
} from '@vt/attribution';
import { CLOUDFRONT_SETUP_FIELDS } from '@vt/contracts';
import { deriveCrawlToken } from '@vt/credentials';
import { GENERATOR } from '@vt/test-support/access-log';
import { freePort } from '@vt/test-support/ports';
import { cpuSecondsOf, createBenchEnvironment, log, serverCpuSeconds, sleep, waitFor } from './support.ts';

const { values: opts } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    senders: { type: 'string', default: '4' },
    durability: { type: 'string', default: 'fast' },
    // Writes the gateway's and the crawl worker's V8 CPU profiles (.cpuprofile, for Chrome
    // DevTools) into DIR/ingest-gateway and DIR/crawl-worker.
    'cpu-prof': { type: 'string' },
  },
});
const LINES = Number(opts.lines);
const SENDERS = Number(opts.senders);
const BATCH = 10_000;
const SECRET = randomBytes(32).toString('hex');
// Ports the system hands out: other benches run on the same machine (a fixed port once sent this
// bench's batches to another run's gateway, answered 404 for a property it did not have).
const GATEWAY_PORT = await freePort();
const WORKER_PORT = await freePort();
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

function resetPeakRss(pid: number) {
  // Writing 5 to clear_refs resets VmHWM (Linux), so each phase reports its own peak.
  try {
    execFileSync('sh', ['-c', `echo 5 > /proc/${pid}/clear_refs`]);
  } catch {
    // not permitted: the figure is then the process's lifetime peak
  }
}

/** The floor: what the gateway's work costs with no HTTP and no prefilter (parse every line). */
function measureFloor(batches: Buffer[], ipIndex: CrawlerIpIndex): { linesPerSecond: number; kept: number } {
  const started = process.hrtime.bigint();
  let lines = 0;
  let kept = 0;
  for (const gz of batches) {
    const text = gunzipSync(gz).toString('utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      lines++;
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof event.host !== 'string' || !event.host.endsWith('example.com')) continue;
      const crawler = typeof event.userAgent === 'string' ? matchAiCrawler(event.userAgent) : null;
      if (crawler) {
        ipIndex.verify(crawler.operator, event.ip as string | undefined);
        kept++;
      } else if (typeof event.referer === 'string') {
        const host = hostOfReferrer(event.referer);
        if (host && platformForHost(host)) kept++;
      }
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { linesPerSecond: lines / seconds, kept };
}

/** One regex over the AI agents' User-Agent markers: issue 31's per-line floor does one test with it. */
const AI_AGENT_PATTERN = new RegExp(
  AI_CRAWLER_UA_MARKERS.map((marker) => marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
  'i',
);

/**
 * Issue 31's floor, in CPU seconds per million lines (this process's user + system time, as the
 * gateway's is read from /proc): gunzip each batch, JSON.parse each line, test its User-Agent
 * against one regex. The least any ingest must do with a line; no HTTP, no classification.
 */
function measureRegexFloor(batches: Buffer[]): { cpuPerMillion: number; matched: number } {
  const before = process.cpuUsage();
  let lines = 0;
  let matched = 0;
  for (const gz of batches) {
    const text = gunzipSync(gz).toString('utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      lines++;
      let event: { userAgent?: unknown };
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof event?.userAgent === 'string' && AI_AGENT_PATTERN.test(event.userAgent)) matched++;
    }
  }
  const used = process.cpuUsage(before);
  return { cpuPerMillion: (used.user + used.system) / lines, matched };
}

/** Each line of a batch, parsed where it is JSON (the generator writes some broken lines on purpose). */
function linesOf(batch: Buffer): (Record<string, unknown> | string)[] {
  return gunzipSync(batch)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : line;
      } catch {
        return line;
      }
    });
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A batch as Logpush writes it (the setup's fields, timestamp_format unixnano), gzip NDJSON. */
function asLogpush(batch: Buffer, round: number): Buffer {
  const lines = linesOf(batch).map((line, i) => {
    if (typeof line === 'string') return line;
    const time = line.timestamp;
    return JSON.stringify({
      ClientIP: line.ip,
      ClientRequestHost: line.host,
      ClientRequestMethod: line.method,
      ClientRequestReferer: text(line.referer),
      ClientRequestURI: line.path,
      ClientRequestUserAgent: line.userAgent,
      EdgeResponseStatus: line.statusCode,
      EdgeStartTimestamp: typeof time === 'number' ? time * 1e6 : time,
      RayID: `${i.toString(16).padStart(8, '0')}${(round + 1).toString(16).padStart(8, '0')}`,
    });
  });
  return gzipSync(`${lines.join('\n')}\n`);
}

/** A batch as one Firehose delivery of CloudFront real-time records (the setup's fields), gzip. */
function asFirehose(batch: Buffer, requestId: string): Buffer {
  const records = linesOf(batch).map((line) => {
    if (typeof line === 'string') return { data: Buffer.from(`${line}\n`).toString('base64') };
    const time = typeof line.timestamp === 'number' ? line.timestamp : Date.parse(text(line.timestamp));
    const values: Record<(typeof CLOUDFRONT_SETUP_FIELDS)[number], string> = {
      timestamp: (time / 1000).toFixed(3),
      'c-ip': text(line.ip) || '-',
      'sc-status': String(line.statusCode),
      'cs-method': text(line.method) || '-',
      'cs-host': text(line.host) || '-',
      'cs-uri-stem': text(line.path) || '-',
      'cs-user-agent': encodeURIComponent(text(line.userAgent)) || '-',
      'cs-referer': encodeURIComponent(text(line.referer)) || '-',
    };
    const record = CLOUDFRONT_SETUP_FIELDS.map((field) => values[field]).join('\t');
    return { data: Buffer.from(`${record}\n`).toString('base64') };
  });
  return gzipSync(JSON.stringify({ requestId, timestamp: Date.now(), records }));
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'vt-bench-ingest-'));
  log(`generating ${LINES} lines in batches of ${BATCH} … (REDIS_DURABILITY=${opts.durability})`);
  execFileSync(process.execPath, [
    GENERATOR,
    '--lines',
    String(LINES),
    '--batch',
    String(BATCH),
    '--out-dir',
    join(dir, 'batches'),
    '--truth',
    join(dir, 'truth.json'),
    '--ranges-out',
    join(dir, 'ranges'),
    '--seed',
    '11',
  ]);
  const truth = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8'));
  const batches = readdirSync(join(dir, 'batches'))
    .sort()
    .map((f) => readFileSync(join(dir, 'batches', f)));
  const ranges = readdirSync(join(dir, 'ranges')).map((f) => ({
    operator: f.replace(/\.json$/, ''),
    ...parsePublishedRanges(JSON.parse(readFileSync(join(dir, 'ranges', f), 'utf8'))),
  }));

  const bench = await createBenchEnvironment();
  const { db, runId, redis, queuePrefix: QUEUE_PREFIX } = bench;
  const team = await db.team.create({ data: { name: 'Bench', slug: `bench-${runId}` } });
  const property = await db.property.create({
    data: { teamId: team.id, name: 'Bench', domain: 'example.com', plan: 'scale', brandTerms: ['Bench'] },
  });
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
  const token = deriveCrawlToken(SECRET, property.id, property.crawlTokenVersion);
  const url = `http://127.0.0.1:${GATEWAY_PORT}/api/ingest/crawl/${property.id}`;

  const profile = (app: string) =>
    opts['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(opts['cpu-prof'], app)}`] : [];
  const gateway = bench.start([...profile('ingest-gateway'), 'apps/ingest-gateway/src/main.ts'], {
    INGEST_GATEWAY_PORT: String(GATEWAY_PORT),
    CRAWL_TOKEN_SECRET: SECRET,
    REDIS_DURABILITY: String(opts.durability),
  });
  const worker = bench.start([...profile('crawl-worker'), 'apps/crawl-worker/src/main.ts'], {
    CRAWL_WORKER_METRICS_PORT: String(WORKER_PORT),
  });
  try {
    await waitFor(`http://127.0.0.1:${GATEWAY_PORT}/readyz`);
    await waitFor(`http://127.0.0.1:${WORKER_PORT}/readyz`);
    await sleep(1000);
    const idleRss = { gateway: rssMb(gateway.pid!), worker: rssMb(worker.pid!) };
    const post = (body: Buffer, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson', ...headers },
        body,
      });

    // Warm-up: one batch (JIT, pools), not counted in the figures' batches' totals below.
    await (await post(batches[0]!)).text();
    await db.$executeRaw`DELETE FROM crawl_events`;

    // --- the floor, in this process, on the same batches
    const floor = measureFloor(batches, new CrawlerIpIndex(ranges));
    measureRegexFloor(batches); // its JIT warm-up
    const regexFloors = [measureRegexFloor(batches).cpuPerMillion];

    // --- 4 concurrent senders
    resetPeakRss(gateway.pid!);
    const cpu = () => ({
      gateway: cpuSecondsOf(gateway.pid!),
      worker: cpuSecondsOf(worker.pid!),
      redis: serverCpuSeconds('redis-server'),
      postgres: serverCpuSeconds('postgres'),
    });
    const cpuBefore = cpu();
    const latencies: number[] = [];
    let next = 0;
    let received = 0;
    let kept = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        for (let i = next++; i < batches.length; i = next++) {
          const t0 = performance.now();
          const res = await post(batches[i]!, { 'content-encoding': 'gzip' });
          const body = (await res.json()) as { kept: number; received: number };
          latencies.push(performance.now() - t0);
          if (res.status !== 202) throw new Error(`batch ${i}: ${res.status} ${JSON.stringify(body)}`);
          received += body.received;
          kept += body.kept;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const lastBatchAt = performance.now();
    const gatewayCpu = cpuSecondsOf(gateway.pid!) - cpuBefore.gateway;
    const gatewayPeakRss = peakRssMb(gateway.pid!);

    // --- the worker catching up
    let persistedAt = 0;
    for (;;) {
      const n = (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM crawl_events`)[0]?.n ?? 0;
      if (n >= truth.kept) {
        persistedAt = performance.now();
        break;
      }
      if (performance.now() - lastBatchAt > 120_000) throw new Error(`worker stored ${n} of ${truth.kept}`);
      await sleep(50);
    }
    // Every process's CPU from the first batch until the worker has stored the last kept event.
    const cpuAfter = cpu();
    const perMillion = (used: number) => (used / received) * 1e6;
    const cpuPerMillion = {
      gateway: perMillion(gatewayCpu),
      worker: perMillion(cpuAfter.worker - cpuBefore.worker),
      redis: perMillion(cpuAfter.redis - cpuBefore.redis),
      postgres: perMillion(cpuAfter.postgres - cpuBefore.postgres),
    };
    await sleep(Math.max(0, 5000 - (performance.now() - lastBatchAt)));
    const backlog =
      (await redis.llen(`${QUEUE_PREFIX}:crawl-batch:wait`)) +
      (await redis.zcard(`${QUEUE_PREFIX}:crawl-batch:delayed`));

    // --- memory under 8 concurrent 10 MiB bodies (uncompressed NDJSON)
    const allText = batches
      .map((b) => gunzipSync(b))
      .reduce((acc, b) => (acc.length >= 10 * 1024 * 1024 ? acc : Buffer.concat([acc, b])), Buffer.alloc(0));
    const lastNewline = allText.lastIndexOf(0x0a, 10 * 1024 * 1024 - 1);
    const tenMiB = allText.subarray(0, lastNewline + 1);
    resetPeakRss(gateway.pid!);
    const bigStarted = performance.now();
    const bigStatuses = await Promise.all(Array.from({ length: 8 }, () => post(tenMiB).then((r) => r.status)));
    const bigSeconds = (performance.now() - bigStarted) / 1000;
    const bigPeakRss = peakRssMb(gateway.pid!);

    // --- the same lines as native NDJSON and in two providers' formats, each to its own endpoint,
    // in alternating rounds (the machine's load drifts: each round is compared with that round's native)
    const ROUNDS = 5;
    const formats: {
      name: string;
      path: string;
      bodies: (round: number) => Buffer[];
      headers: (round: number, i: number) => Record<string, string>;
    }[] = [
      {
        name: 'native NDJSON',
        path: '',
        bodies: () => batches,
        headers: () => ({
          authorization: `Bearer ${token}`,
          'content-type': 'application/x-ndjson',
          'content-encoding': 'gzip',
        }),
      },
      {
        name: 'Cloudflare Logpush',
        path: '/cloudflare',
        // Each round's RayIDs differ, so no round is taken for a resend of another.
        bodies: (round) => batches.map((b) => asLogpush(b, round)),
        headers: () => ({ authorization: `Bearer ${token}` }),
      },
      {
        name: 'Firehose (CloudFront)',
        path: '/firehose',
        bodies: (round) => batches.map((b, i) => asFirehose(b, `${runId}-${round}-${i}`)),
        headers: (round, i) => ({
          'x-amz-firehose-access-key': token,
          'x-amz-firehose-request-id': `${runId}-${round}-${i}`,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        }),
      },
    ];
    // Each format's code warmed (JIT) on a tenth of its batches first, as the native path was by
    // the run above; uncounted, and named apart so no measured batch is taken for a resend.
    for (const format of formats) {
      const bodies = format.bodies(-1).slice(0, Math.max(1, Math.floor(batches.length / 10)));
      for (const [i, body] of bodies.entries()) {
        const res = await fetch(`${url}${format.path}`, { method: 'POST', headers: format.headers(-1, i), body });
        await res.text();
      }
    }
    const formatCpu = new Map<string, number[]>(formats.map((f) => [f.name, []]));
    const formatRate = new Map<string, number[]>(formats.map((f) => [f.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // The regex floor again before each round (native first): each round's ratio is to its own floor.
      regexFloors.push(measureRegexFloor(batches).cpuPerMillion);
      for (const format of formats) {
        const bodies = format.bodies(round);
        const before = cpuSecondsOf(gateway.pid!);
        const t0 = performance.now();
        let n = 0;
        await Promise.all(
          Array.from({ length: SENDERS }, async () => {
            for (let i = n++; i < bodies.length; i = n++) {
              const res = await fetch(`${url}${format.path}`, {
                method: 'POST',
                headers: format.headers(round, i),
                body: bodies[i]!,
              });
              const answer = await res.text();
              if (res.status >= 300) throw new Error(`${format.name} batch ${i}: ${res.status} ${answer}`);
            }
          }),
        );
        formatCpu.get(format.name)?.push(((cpuSecondsOf(gateway.pid!) - before) / received) * 1e6);
        formatRate.get(format.name)?.push(received / ((performance.now() - t0) / 1000));
      }
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

    const regexFloor = median(regexFloors);
    const nativeCpu = formatCpu.get('native NDJSON') ?? [];
    const roundRatios = nativeCpu.map((cpu, round) => cpu / (regexFloors[round + 1] ?? regexFloor));

    const sorted = [...latencies].sort((a, b) => a - b);
    const rate = received / seconds;
    log('');
    log(
      `crawl ingest, ${batches.length} gzip NDJSON batches of ${BATCH} lines, ${SENDERS} concurrent senders, one gateway process`,
    );
    log(
      `  accepted           ${Math.round(rate).toLocaleString('en')} lines/s  (${received.toLocaleString('en')} lines in ${seconds.toFixed(2)} s; kept ${kept.toLocaleString('en')})`,
    );
    log(
      `  floor (same run)   ${Math.round(floor.linesPerSecond).toLocaleString('en')} lines/s  gunzip + JSON.parse + classify, one core, no HTTP`,
    );
    log(`  gateway / floor    ${((rate / floor.linesPerSecond) * 100).toFixed(0)} %  (target >= 50 %)`);
    const totalCpu = Object.values(cpuPerMillion).reduce((a, b) => a + b, 0);
    log(
      `  CPU s / 1M lines   gateway ${cpuPerMillion.gateway.toFixed(2)} (target <= 2.5; the floor ${(1e6 / floor.linesPerSecond).toFixed(2)}), crawl worker ${cpuPerMillion.worker.toFixed(2)}, Redis ${cpuPerMillion.redis.toFixed(2)}, Postgres ${cpuPerMillion.postgres.toFixed(2)}; all four ${totalCpu.toFixed(2)} (target <= 4)`,
    );
    log(
      `  CPU / regex floor  ${(cpuPerMillion.gateway / regexFloor).toFixed(2)}x  (issue 31: <= 1.5x): the gateway's ${cpuPerMillion.gateway.toFixed(2)} CPU s / 1M lines over the same run's gunzip + JSON.parse + one regex per line, ${regexFloor.toFixed(2)} (median of ${regexFloors.length}: ${regexFloors.map((x) => x.toFixed(2)).join(', ')})`,
    );
    log(
      `                     native rounds below, each over the floor measured just before it: median ${median(roundRatios).toFixed(2)}x (${roundRatios.map((x) => x.toFixed(2)).join(', ')})`,
    );
    log(
      `  batch latency      p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms`,
    );
    log(
      `  idle RSS           gateway ${idleRss.gateway.toFixed(0)} MB (target < 150), crawl worker ${idleRss.worker.toFixed(0)} MB, both compiled (pnpm build)`,
    );
    log(`  gateway peak RSS   ${gatewayPeakRss.toFixed(0)} MB during the run`);
    log(
      `  worker caught up   ${((persistedAt - lastBatchAt) / 1000).toFixed(2)} s after the last batch; backlog 5 s after: ${backlog} jobs`,
    );
    log(
      `  8 x 10 MiB bodies  peak RSS ${bigPeakRss.toFixed(0)} MB (target < 300 MB), ${bigSeconds.toFixed(2)} s, statuses ${[...new Set(bigStatuses)].join(',')}`,
    );
    log(
      `  by format          the same ${received.toLocaleString('en')} lines, ${ROUNDS} alternating rounds; the ratio is the median of each round's CPU over that round's native`,
    );
    const nativeRounds = formatCpu.get('native NDJSON') ?? [];
    for (const format of formats) {
      const rounds = formatCpu.get(format.name) ?? [];
      const ratio = median(rounds.map((cpu, round) => cpu / (nativeRounds[round] ?? cpu)));
      log(
        `    ${format.name.padEnd(22)} ${Math.round(median(formatRate.get(format.name) ?? [])).toLocaleString('en')} lines/s, gateway ${median(rounds).toFixed(2)} CPU s / 1M lines, ${ratio.toFixed(2)}x native (target <= 1.2x; rounds ${rounds.map((x) => x.toFixed(2)).join(', ')})`,
      );
    }
    log(
      `  truth check        received ${received === truth.received ? 'ok' : `MISMATCH ${received} != ${truth.received}`}, kept ${kept === truth.kept ? 'ok' : `MISMATCH ${kept} != ${truth.kept}`}`,
    );
  } finally {
    await bench.cleanUp([gateway, worker]);
  }
}

await main();
