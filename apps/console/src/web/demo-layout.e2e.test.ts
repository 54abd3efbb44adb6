import AxeBuilder from '@axe-core/playwright';
import { runScript, scratchDatabase } from '@vt/test-support';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness } from '../testing/index.ts';

// The console's pages full of data (the demo as `ops demo seed` writes it: 90 days of crawls,
// answers, leads): no serious or critical axe violation, nothing wider than a 390 px phone, and
// the visibility chart's "100%" drawn whole (it was cut to "00%").

vi.setConfig({ testTimeout: 180_000 });
let demo: Awaited<ReturnType<typeof scratchDatabase>>;
let h: ReturnType<typeof createConsoleHarness>;
let ui: ConsoleInBrowser;
let login: { emails: string[]; password: string };

beforeAll(async () => {
  demo = await scratchDatabase('demo_layout');
  const seed = runScript('apps/ops/src/main.ts', ['demo', 'seed', '--json'], { DATABASE_URL: demo.url });
  const code = await seed.exited;
  if (code !== 0) throw new Error(`demo seed failed (${code}): ${seed.stdout()} ${seed.stderr()}`);
  login = JSON.parse(seed.stdout()).login;
  h = createConsoleHarness({ db: demo.db });
  ui = await openConsoleInBrowser(h.appDeps);
}, 240_000);

afterAll(async () => {
  await ui?.close();
  await h?.close();
  await demo?.drop();
});

/** The demo owner signed in, in a browser context of its own (axe opens a page beside it). */
async function signIn(viewport: { width: number; height: number }): Promise<Page> {
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
    ...['activity', 'answers', 'settings', 'crawl', 'webhook'].map((p) => `${base}/${p}`),
  ];
}

async function open(page: Page, path: string) {
  await page.goto(`${ui.base}${path}`);
  await page.waitForLoadState('networkidle');
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
}

describe('the demo’s pages, full of data', () => {
  it('have no serious or critical axe violation, and show the visibility chart’s 100% whole', async () => {
    const page = await signIn({ width: 1280, height: 900 });
    const problems: Record<string, string[]> = {};
    for (const path of await propertyPages(page)) {
      await open(page, path);
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

  it('fit a 390 px phone, with no serious or critical axe violation there', async () => {
    const page = await signIn({ width: 390, height: 844 });
    const widths: Record<string, number> = {};
    const problems: Record<string, string[]> = {};
    for (const path of await propertyPages(page)) {
      await open(page, path);
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
