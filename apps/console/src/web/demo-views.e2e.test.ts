import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { runScript, scratchDatabase } from '@vt/test-support';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, type ExpectStatic, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness } from '../testing/index.ts';

// The demo as `pnpm start` shows it: `ops demo seed` into a database of its own (the demo team's
// ids are fixed, and apps/ops's seed test owns the run's database copy), then the owner's views of
// Acme Analytics in the browser, and its pages full of data checked as a person with a screen
// reader or a phone meets them: no serious or critical axe violation, nothing wider than a 390 px
// phone, the visibility chart's "100%" drawn whole (it was cut to "00%"). `pnpm screenshots` runs this file with
// REFRESH_README_SCREENSHOTS=1 to replace the images of the README and docs/console.md in docs/screenshots/.

const README_SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
const refresh = process.env.REFRESH_README_SCREENSHOTS === '1';
// A walk through many pages in Chromium (axe on each, at two widths), with three more test files
// running beside it on two cores: on a slow machine one took over 30 s (the suite's default).
vi.setConfig({ testTimeout: 180_000 });
let demo: Awaited<ReturnType<typeof scratchDatabase>>;
let h: ReturnType<typeof createConsoleHarness>;
let ui: ConsoleInBrowser;
let login: { emails: string[]; password: string };

beforeAll(async () => {
  demo = await scratchDatabase('demo');
  h = createConsoleHarness({ db: demo.db });
  // The browser starts while the seed runs (nothing is read before the tests).
  const seed = runScript('apps/ops/src/main.ts', ['demo', 'seed', '--json'], { DATABASE_URL: demo.url });
  [ui] = await Promise.all([openConsoleInBrowser(h.appDeps), seed.exited]);
  const code = await seed.exited;
  if (code !== 0) throw new Error(`demo seed failed (${code}): ${seed.stdout()} ${seed.stderr()}`);
  login = JSON.parse(seed.stdout()).login;
  if (refresh) mkdirSync(README_SCREENSHOTS, { recursive: true });
}, 240_000);

afterAll(async () => {
  await ui?.close();
  await h?.close();
  await demo?.drop();
});

/** The first screenful of a view, as a person sees it at 1280 × 900. */
const shot = (page: Parameters<ConsoleInBrowser['shot']>[0], name: string) =>
  ui.shot(page, name, refresh ? README_SCREENSHOTS : undefined, { fullPage: false });

// Each test has its own pages and only reads the demo, so the tests of a block run side by side: the
// walks mostly wait on the browser, and one after the other they were most of this file's time.
describe.concurrent('the demo in the web UI', () => {
  it("shows the demo owner Acme Analytics' activity, answers and crawl setup from the seeded data", async ({
    expect,
  }) => {
    const page = await ui.signIn({ email: login.emails[0] as string, password: login.password });
    // The home overview first: the demo's figures with their trends and what changed this week.
    await page.getByTestId('overview').waitFor();
    const acme = await page.getByTestId('overview').locator('tr[data-property="Acme Analytics"] td').allTextContents();
    expect(acme[0]).toMatch(/^\d+(\.\d)?%/);
    expect(Number(acme[4]?.match(/^[\d,]+/)?.[0].replace(/,/g, ''))).toBeGreaterThan(500);
    await shot(page, 'overview');
    await page.getByRole('link', { name: 'Acme Analytics' }).click();
    await page.getByTestId('crawler-chart').locator('.recharts-bar-rectangle').first().waitFor();
    const hits = Number((await page.getByTestId('total-hits').textContent())?.replace(/\D/g, ''));
    expect(hits).toBeGreaterThan(500);
    expect(await page.getByTestId('crawlers').textContent()).toContain('GPTBot');
    expect(await page.getByTestId('recent-leads').locator('tbody tr').count()).toBeGreaterThan(0);
    await shot(page, 'activity');

    await page.getByRole('link', { name: 'AI answers' }).click();
    await page.getByTestId('visibility-chart').locator('.recharts-line').first().waitFor();
    expect(await page.getByTestId('responses').locator('li').count()).toBe(20);
    await shot(page, 'answers');

    await page.getByRole('link', { name: 'Crawl setup' }).click();
    await page.getByTestId('delivery-log').waitFor();
    expect(await page.getByTestId('crawl-status').textContent()).toBe('connected');
    await page.getByText('curl: one NDJSON file, gzipped').click();
    await shot(page, 'crawl-setup');
    await page.close();
  });

  it("shows the demo's prompts × platforms with a whole answer, and its sources", async ({ expect }) => {
    const page = await ui.signIn({ email: login.emails[0] as string, password: login.password });
    await page.getByRole('link', { name: 'Acme Analytics' }).click();
    await page.getByRole('link', { name: 'Prompts × platforms' }).click();
    await page.getByTestId('prompt-matrix').waitFor();
    expect(await page.getByTestId('prompt-matrix').locator('tbody tr').count()).toBeGreaterThan(0);
    await page.getByTestId('prompt-matrix').locator('button.verdict').first().click();
    await page.getByRole('dialog').getByTestId('answer-text').waitFor();
    await shot(page, 'whole-answer');
    await page.keyboard.press('Escape');
    await shot(page, 'prompt-matrix');

    await page.getByRole('link', { name: 'Sources' }).click();
    await page.getByTestId('source-domains').waitFor();
    expect(await page.getByTestId('source-domains').locator('tbody tr').count()).toBeGreaterThan(0);
    await shot(page, 'sources');
    await page.close();
  });
});

/** The demo owner signed in, in a browser context of its own (axe opens a page beside it). */
async function signInWithContext(viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await ui.browser.newContext({ viewport })).newPage();
  await page.goto(`${ui.base}/sign-in`);
  await page.getByLabel('Email').fill(login.emails[0] as string);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/t\/[0-9a-f-]{36}$/);
  await page.getByRole('link', { name: 'Acme Analytics' }).first().waitFor();
  return page;
}

/** The demo property's pages, from its links on the team's page. */
async function propertyPages(page: Page): Promise<string[]> {
  const activity = new URL(
    (await page.getByRole('link', { name: 'Acme Analytics' }).first().getAttribute('href')) ?? '',
    ui.base,
  );
  const base = activity.pathname.replace(/\/activity$/, '');
  return [
    new URL(page.url()).pathname,
    ...['activity', 'answers', 'prompts', 'sources', 'settings', 'crawl', 'webhook'].map((p) => `${base}/${p}`),
  ];
}

/** `expect` is the test's own: the tests of a block run side by side (a poll belongs to its test). */
async function open(page: Page, path: string, expect: ExpectStatic) {
  await page.goto(`${ui.base}${path}`);
  await page.waitForLoadState('networkidle');
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
}

describe.concurrent('the demo’s pages, full of data', () => {
  it('have no serious or critical axe violation, and show the visibility chart’s 100% whole', async ({ expect }) => {
    const page = await signInWithContext({ width: 1280, height: 900 });
    const problems: Record<string, string[]> = {};
    for (const path of await propertyPages(page)) {
      await open(page, path, expect);
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      if (serious.length)
        problems[path] = serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      if (path.endsWith('/answers')) {
        const chart = page.getByTestId('visibility-chart');
        await chart.locator('.recharts-line').first().waitFor();
        const tick = chart.locator('.recharts-yAxis-tick-labels text', { hasText: '100%' });
        const svg = await chart.locator('.recharts-wrapper > svg').boundingBox();
        const label = await tick.boundingBox();
        if (!svg || !label) throw new Error('the visibility chart has no 100% tick');
        expect(label.x).toBeGreaterThanOrEqual(svg.x);
      }
    }
    expect(problems).toEqual({});
    await page.context().close();
  });

  it('fit a 390 px phone, with no serious or critical axe violation there', async ({ expect }) => {
    const page = await signInWithContext({ width: 390, height: 844 });
    const widths: Record<string, number> = {};
    const problems: Record<string, string[]> = {};
    for (const path of await propertyPages(page)) {
      await open(page, path, expect);
      widths[path] = await page.evaluate<number>('document.documentElement.scrollWidth');
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      if (serious.length)
        problems[path] = serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
    expect(Object.entries(widths).filter(([, width]) => width > 390)).toEqual([]);
    expect(problems).toEqual({});
    await page.context().close();
  });
});
