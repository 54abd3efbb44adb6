// pnpm bench:console — how fast the console's views answer on the 90-day demo data, and how much
// JavaScript its first page costs.
//
// Seeds the demo (`ops demo seed`: 90 days of answers, crawler visits, referrals and leads) into a
// scratch database, builds the web UI, starts the compiled console app, signs the demo owner in
// with Debian's Chromium (playwright-core), and opens every view it can reach from the demo
// property's pages (the header's and the property's tabs, found on the page, so a new view is
// measured without editing this file) ROUNDS times, at the default range and at the whole 90 days.
// It prints, per view and overall, the API calls' p50/p95/max as the browser timed them (request
// sent to response end, over loopback), against the same run's baseline (GET /api/me, the cheapest
// call), and the gzip size of the JavaScript the first page loads.
// Targets (issue 28): every view's API calls p95 < 200 ms; initial JavaScript <= 250 KB gzip.
// Options: --rounds N (default 10).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { createBenchEnvironment, log, waitFor } from './support.ts';

const { values: opts } = parseArgs({ options: { rounds: { type: 'string', default: '10' } } });
const ROUNDS = Number(opts.rounds);
const CONSOLE_PORT = 3911;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const P95_TARGET_MS = 200;
const INITIAL_JS_TARGET_KB = 250;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const ms = (value: number) => `${value.toFixed(0).padStart(4)} ms`;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The API calls one page load made, each with the time from sending it to its response's end. */
async function apiTimings(page: Page, load: () => Promise<unknown>): Promise<{ path: string; ms: number }[]> {
  const timings: { path: string; ms: number }[] = [];
  const finished = (request: import('playwright-core').Request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    timings.push({ path: `${request.method()} ${url.pathname}`, ms: request.timing().responseEnd });
  };
  page.on('requestfinished', finished);
  await load();
  page.off('requestfinished', finished);
  return timings;
}

async function main() {
  const bench = await createBenchEnvironment();
  const secrets = {
    CRAWL_TOKEN_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SIGNING_KEY: randomBytes(32).toString('hex'),
  };
  const env = {
    ...process.env,
    DATABASE_URL: bench.databaseUrl,
    REDIS_URL: bench.redisUrl,
    QUEUE_PREFIX: bench.queuePrefix,
    LOG_LEVEL: 'warn',
    ...secrets,
  };
  log('seeding the 90-day demo …');
  const seeded = JSON.parse(
    execFileSync(process.execPath, ['apps/ops/dist/main.js', 'demo', 'seed', '--json'], { env, encoding: 'utf8' }),
  ) as { login: { emails: string[]; password: string } };
  log('building the web UI …');
  execFileSync('pnpm', ['--filter', '@vt/console', 'build:web'], { stdio: 'ignore' });

  const consoleApp = bench.start(['apps/console/src/main.ts'], {
    ...secrets,
    CONSOLE_PORT: String(CONSOLE_PORT),
    CONSOLE_PUBLIC_URL: `http://127.0.0.1:${CONSOLE_PORT}`,
  });
  const base = `http://127.0.0.1:${CONSOLE_PORT}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    await waitFor(`${base}/healthz`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });

    // The first page a person opens, signed out: every script it loads, gzipped as served.
    const scripts = new Map<string, number>();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.set(response.url(), gzipSync(await response.body()).length);
    });
    await page.goto(`${base}/sign-in`, { waitUntil: 'networkidle' });
    page.removeAllListeners('response');
    const initialJsKb = [...scripts.values()].reduce((a, b) => a + b, 0) / 1024;

    await page.getByLabel('Email').fill(seeded.login.emails[0] as string);
    await page.getByLabel('Password').fill(seeded.login.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]{36}$/);
    await page.getByRole('link', { name: 'Acme Analytics' }).first().click();
    await page.waitForURL(/\/p\/[0-9a-f-]{36}\//);
    await page.getByRole('link', { name: 'Crawl setup' }).waitFor();
    const teamPath = new URL(page.url()).pathname.split('/p/')[0] as string;
    const links = await page
      .locator(`a[href^="${teamPath}"]`)
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    log(`${links.length} links to views found on the demo property's activity page`);
    const views = [...new Set(['/', ...links.map((href) => href.split('?')[0] as string)])].sort();

    const today = new Date();
    const from = isoDay(new Date(today.getTime() - 89 * 86_400_000));
    const whole = `?from=${from}&to=${isoDay(today)}`;
    const all: number[] = [];
    const baseline: number[] = [];
    const rows: string[] = [];
    let worstP95 = 0;
    for (const view of views) {
      const ranges = view.includes('/p/') ? ['', whole] : [''];
      for (const range of ranges) {
        const times: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const calls = await apiTimings(page, () => page.goto(`${base}${view}${range}`, { waitUntil: 'networkidle' }));
          for (const call of calls) {
            if (call.path === 'GET /api/me') baseline.push(call.ms);
            else times.push(call.ms);
          }
        }
        if (times.length === 0) continue;
        times.sort((a, b) => a - b);
        all.push(...times);
        const p95 = percentile(times, 0.95);
        worstP95 = Math.max(worstP95, p95);
        const name = `${view.replace(teamPath, '/t/…').replace(/\/p\/[0-9a-f-]{36}/, '/p/…')}${range ? ' (90 days)' : ''}`;
        rows.push(
          `  ${name.padEnd(34)} ${String(times.length / ROUNDS).padStart(3)} calls  p50 ${ms(percentile(times, 0.5))}  p95 ${ms(p95)}  max ${ms(times.at(-1) ?? 0)}`,
        );
      }
    }
    all.sort((a, b) => a - b);
    baseline.sort((a, b) => a - b);
    log('');
    log(`console views on the 90-day demo, ${ROUNDS} loads each (API calls as the browser timed them, loopback)`);
    for (const row of rows) log(row);
    log(
      `  every view                         ${String(all.length).padStart(3)} calls  p50 ${ms(percentile(all, 0.5))}  p95 ${ms(percentile(all, 0.95))}  max ${ms(all.at(-1) ?? 0)}`,
    );
    log(
      `  baseline GET /api/me (same run)    ${String(baseline.length).padStart(3)} calls  p50 ${ms(percentile(baseline, 0.5))}  p95 ${ms(percentile(baseline, 0.95))}`,
    );
    log(`  worst view p95                     ${ms(worstP95)}  (target < ${P95_TARGET_MS} ms on every view)`);
    log(
      `  initial JavaScript                 ${initialJsKb.toFixed(1)} KB gzip in ${scripts.size} file(s) (target <= ${INITIAL_JS_TARGET_KB} KB)`,
    );
  } finally {
    await browser.close();
    await bench.cleanUp([consoleApp]);
  }
}

await main();
