import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, type ExpectStatic, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// Every page of the console, signed out and signed in, checked for what a person needs whatever
// the page holds: its own document title, landmarks and a skip link, no serious or critical axe
// violation, no page wider than a 390 px phone, every property tab reachable there, and names of
// 80+ characters without a space not widening the page. The checks are about the frame, not the
// pages' text, so new content on a page does not break them.

vi.setConfig({ testTimeout: 180_000 });

const h = createConsoleHarness();
let ui: ConsoleInBrowser;

/** 90 characters without a space: a name a person could paste. */
const LONG = (what: string) => `${what}${'Unbrokenname'.repeat(8)}`;

let owner: SignedUp;
let teamId = '';
let propertyId = '';
let otherTeamId = '';

beforeAll(async () => {
  // The browser starts while the pages' data is made (and is closed after, whichever fails).
  const browser = openConsoleInBrowser(h.appDeps);
  try {
    await seedPages();
  } finally {
    ui = await browser;
  }
}, 180_000);

/** The owner's team with a property, competitor, prompt and key under long names; a stranger's team. */
async function seedPages() {
  owner = await h.signUp('layout');
  const made = await h.as(owner.token).post('/api/teams', { name: LONG('Team'), slug: `lay-${Date.now()}` });
  teamId = made.body.team.id;
  const as = h.as(owner.token, teamId);
  const property = await as.post('/api/properties', {
    name: LONG('Property'),
    domain: 'flow-shop.example',
    plan: 'growth',
  });
  propertyId = property.body.property.id;
  await as.post(`/api/properties/${propertyId}/competitors`, { name: LONG('Competitor') });
  await as.post(`/api/properties/${propertyId}/prompts`, { text: LONG('Prompt') });
  await as.post('/api/keys', { name: LONG('Key') });
  // A team the owner is not in.
  const stranger = await h.signUp('stranger');
  otherTeamId = (await h.teamOf(stranger)).teamId;
}

afterAll(async () => {
  await ui?.close();
  await h.close();
});

const signedOutPages = ['/sign-in', '/sign-up'];
const signedInPages = () => [
  `/t/${teamId}`,
  '/teams/new',
  `/t/${teamId}/settings`,
  `/t/${teamId}/keys`,
  `/t/${teamId}/mail`,
  `/t/${teamId}/p/${propertyId}/activity`,
  `/t/${teamId}/p/${propertyId}/answers`,
  `/t/${teamId}/p/${propertyId}/settings`,
  `/t/${teamId}/p/${propertyId}/crawl`,
  `/t/${teamId}/p/${propertyId}/webhook`,
  `/t/${otherTeamId}`,
];

/**
 * A signed-in page in a context of its own (axe opens a page beside it, which a context allows):
 * signing in as a person does.
 */
async function signIn(person: SignedUp, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await ui.browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${ui.base}/sign-in`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/t\/[0-9a-f-]{36}$/);
  return page;
}

async function signedOut(viewport = { width: 1280, height: 900 }): Promise<Page> {
  return (await ui.browser.newContext({ viewport })).newPage();
}

/** Closes a page and its context. */
const close = (page: Page) => page.context().close();

/**
 * Opens a page and waits until it has loaded its data (no request in flight, no "Loading…").
 * `expect` is the test's own: the tests run side by side (a poll belongs to its test).
 */
async function open(page: Page, path: string, expect: ExpectStatic) {
  await page.goto(`${ui.base}${path}`);
  await page.waitForLoadState('networkidle');
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.getByText('Loading…').count(), { message: `still loading: ${path}` }).toBe(0);
}

async function serious(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  if (process.env.AXE_DEBUG)
    console.log(JSON.stringify(results.violations.map((v) => [v.id, v.impact, v.nodes.length])));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The frame every page has: title, landmarks, skip link first in the Tab order, reaching <main>. */
async function frameOf(page: Page) {
  const landmarks = {
    mains: await page.locator('main').count(),
    headers: await page.locator('header').count(),
    navs: await page.locator('nav').count(),
  };
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const focused = page.locator(':focus');
  const first = { text: await focused.textContent(), href: await focused.getAttribute('href') };
  await page.keyboard.press('Enter');
  const focusInMain = (await page.locator('main:focus').count()) === 1;
  return { title: await page.title(), landmarks, first, focusInMain };
}

// Each test has its own browser context and changes nothing another reads, so they run side by
// side: they mostly wait on the browser, and one after the other they were most of this file's time.
describe.concurrent('every console page, for everyone', () => {
  it('has its own title, header and main landmarks, a skip link first, and no serious or critical axe violation', async ({
    expect,
  }) => {
    const titles = new Map<string, string>();
    const problems: Record<string, string[]> = {};
    const check = async (page: Page, path: string, signedIn: boolean) => {
      await open(page, path, expect);
      const frame = await frameOf(page);
      expect(frame.title, path).toMatch(/ · AI Visibility$/);
      titles.set(path, frame.title);
      expect(frame.landmarks.mains, path).toBe(1);
      expect(frame.landmarks.headers, path).toBeGreaterThanOrEqual(1);
      if (signedIn && path !== '/teams/new' && path !== `/t/${otherTeamId}`) {
        expect(frame.landmarks.navs, path).toBeGreaterThanOrEqual(1);
      }
      expect(frame.first, path).toEqual({ text: 'Skip to main content', href: '#main' });
      expect(frame.focusInMain, path).toBe(true);
      const found = await serious(page);
      if (found.length) problems[path] = found;
    };

    const out = await signedOut();
    for (const path of signedOutPages) await check(out, path, false);
    await close(out);
    const page = await signIn(owner);
    for (const path of signedInPages()) await check(page, path, true);
    await close(page);

    expect(problems).toEqual({});
    // Each page names itself: no two share a title.
    expect(new Set(titles.values()).size).toBe(titles.size);
    expect(titles.get(`/t/${teamId}/p/${propertyId}/activity`)).toBe(`Activity · ${LONG('Property')} · AI Visibility`);
  });

  it('fits a 390 px phone on every page, long unbroken names included, with every property tab on screen and no axe violation there', async ({
    expect,
  }) => {
    const widths: Record<string, number> = {};
    // On a phone wide tables scroll inside themselves: axe checks those, too, can be reached.
    const problems: Record<string, string[]> = {};
    const out = await signedOut({ width: 390, height: 844 });
    for (const path of signedOutPages) {
      await open(out, path, expect);
      widths[path] = await out.evaluate<number>('document.documentElement.scrollWidth');
      const found = await serious(out);
      if (found.length) problems[path] = found;
    }
    await close(out);

    const page = await signIn(owner, { width: 390, height: 844 });
    for (const path of signedInPages()) {
      await open(page, path, expect);
      widths[path] = await page.evaluate<number>('document.documentElement.scrollWidth');
      const found = await serious(page);
      if (found.length) problems[path] = found;
      await ui.shot(page, `phone${path.replace(/[0-9a-f-]{36}/g, 'id').replaceAll('/', '-')}`);
    }
    expect(Object.entries(widths).filter(([, width]) => width > 390)).toEqual([]);
    expect(problems).toEqual({});

    // Every tab of a property is on screen, none hidden past the edge.
    await open(page, `/t/${teamId}/p/${propertyId}/activity`, expect);
    const tabs = page.getByRole('navigation', { name: 'Property' }).getByRole('link');
    expect(await tabs.count()).toBeGreaterThanOrEqual(5);
    for (const tab of await tabs.all()) {
      const box = await tab.boundingBox();
      expect(box, (await tab.textContent()) ?? '').not.toBeNull();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
    await tabs.last().click();
    await page.waitForURL(/\/webhook$/);
    await close(page);
  });

  it('has no serious or critical axe violation with a confirmation dialog or every example opened', async ({
    expect,
  }) => {
    const page = await signIn(owner);
    await open(page, `/t/${teamId}/keys`, expect);
    await page.getByRole('button', { name: 'Revoke' }).first().click();
    await page.getByRole('dialog').waitFor();
    expect(await serious(page)).toEqual([]);
    await page.keyboard.press('Escape');
    for (const path of [`/t/${teamId}/p/${propertyId}/crawl`, `/t/${teamId}/p/${propertyId}/webhook`]) {
      await open(page, path, expect);
      for (const summary of await page.locator('main details > summary').all()) await summary.click();
      expect(await serious(page), path).toEqual([]);
    }
    await close(page);
  });

  it('keeps the Create key button clear of the property checkboxes on the keys page', async ({ expect }) => {
    const page = await signIn(owner, { width: 1280, height: 900 });
    await open(page, `/t/${teamId}/keys`, expect);
    const form = page.getByRole('form', { name: 'Create a key' });
    const button = await form.getByRole('button', { name: 'Create key' }).boundingBox();
    for (const label of await form.locator('label.check').all()) {
      const box = await label.boundingBox();
      if (!box || !button) throw new Error('not rendered');
      const overlaps =
        box.x < button.x + button.width &&
        button.x < box.x + box.width &&
        box.y < button.y + button.height &&
        button.y < box.y + box.height;
      expect(overlaps).toBe(false);
    }
    await close(page);
  });

  it('answers a team the person is not in with a plain page that links to their own teams', async ({ expect }) => {
    const page = await signIn(owner);
    for (const path of [`/t/${otherTeamId}`, `/t/${otherTeamId}/keys`, '/t/00000000-0000-4000-8000-000000000000']) {
      await open(page, path, expect);
      expect(await page.getByTestId('not-a-member').textContent()).toBe(
        'You are not a member of this team, or it does not exist.',
      );
      expect(await page.getByRole('link', { name: LONG('Team') }).count()).toBe(1);
    }
    await page.getByRole('link', { name: LONG('Team') }).click();
    await page.waitForURL(`${ui.base}/t/${teamId}`);
    await page.getByRole('cell', { name: 'flow-shop.example' }).waitFor();
    await close(page);
  });

  it('says a refused form in a plain sentence, with the API’s code behind a details toggle', async ({ expect }) => {
    const page = await signIn(owner);
    await open(page, `/t/${teamId}`, expect);
    // Spaces pass the browser's `required`; the API refuses them.
    await page.getByLabel('Name', { exact: true }).fill('   ');
    await page.getByLabel('Domain').fill('blank.example');
    await page.getByRole('button', { name: 'Add property' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Please check the form. The name must not be blank.');
    const technical = page.locator('.error-line details');
    expect(await technical.locator('pre').isVisible()).toBe(false);
    await technical.locator('summary').click();
    expect(await technical.locator('pre').textContent()).toContain('INVALID_BODY (HTTP 400)');
    await close(page);
  });
});
