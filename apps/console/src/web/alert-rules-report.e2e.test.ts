import AxeBuilder from '@axe-core/playwright';
import { evaluateProperty } from '@vt/alerts';
import { addUtcDays, utcDay } from '@vt/db';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BAD_UNSUBSCRIBE_LINK } from '../../web/src/plain-errors.ts';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { CONSOLE_ORIGIN, createConsoleHarness, type SignedUp } from '../testing/index.ts';

// The property settings page's Alerts: rules and Weekly report sections in Chromium, and the
// public /unsubscribe page. An owner switches a rule on with a threshold and a chosen member as its
// only recipient, the real evaluation fires it on seeded counts, and a reload shows the rule kept,
// its state, what it measured and the message in words; the owner subscribes to the weekly report
// and previews it in a frame that runs no script. A member on a phone reads the rules without a
// control and subscribes and stops for themself. The report's own unsubscribe link then works in
// one click without signing in, and a forged one says so. The steps run in order and share the
// team: few page loads, since each costs a browser's time.

vi.setConfig({ testTimeout: 120_000 });

const h = createConsoleHarness();
let ui: ConsoleInBrowser;
let owner: SignedUp;
let member: SignedUp;
let teamId = '';
let propertyId = '';
let settings = '';
/** The owner's unsubscribe token, read off the preview's text as the email carries it. */
let token = '';

const RULE = 'AI crawler hits drop, week over week';

beforeAll(async () => {
  ui = await openConsoleInBrowser(h.appDeps);
  owner = await h.signUp('rules-owner');
  member = await h.signUp('rules-member');
  ({ teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]));
  const created = await h
    .as(owner.token, teamId)
    .post('/api/properties', { name: 'Report Shop', domain: 'report-shop.example', plan: 'growth' });
  propertyId = created.body.property.id;
  settings = `${ui.base}/t/${teamId}/p/${propertyId}/settings`;
  // AI crawler hits: 200 the week before, 20 last week (-90 %), as the crawl worker counts them.
  const today = utcDay(new Date());
  for (const [daysAgo, hits] of [
    [10, 200],
    [3, 20],
  ] as const) {
    await h.db.crawlerDailyCount.create({
      data: {
        propertyId,
        day: addUtcDays(today, -daysAgo),
        crawler: 'GPTBot',
        operator: 'openai',
        verification: 'verified',
        hits,
      },
    });
  }
}, 180_000);

afterAll(async () => {
  await ui?.close();
  await h.close();
});

/** A page in a context of its own (axe opens a page beside it, which a context allows), signed in. */
async function signIn(person: SignedUp, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await (await ui.browser.newContext({ viewport })).newPage();
  // A step that cannot happen fails naming itself, well within the test's time.
  page.setDefaultTimeout(20_000);
  await page.goto(`${ui.base}/sign-in`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/t\/[0-9a-f-]{36}$/);
  return page;
}

async function seriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    // axe runs inside every frame, and the report's preview frame runs no script: axe would wait on
    // it for ever. What is in it is the email's own HTML; the test checks the frame has a title.
    .exclude('[data-testid=weekly-report] iframe')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('alert rules and the weekly report on the property settings page', () => {
  it('an owner sets a rule with a threshold and a chosen member, sees it kept and firing after a reload, and previews the report in a frame that runs nothing', async () => {
    const page = await signIn(owner);
    await page.goto(settings);
    const rule = page.getByRole('form', { name: RULE });
    await rule.getByLabel('On').check();
    await rule.getByLabel('Alert at a drop of').fill('40');
    await rule.getByLabel('Members I choose').check();
    const choices = rule.getByTestId('alert-rule-members');
    await choices.getByLabel(member.email).check();
    expect(await choices.getByLabel(owner.email).isChecked()).toBe(false);
    await rule.getByRole('button', { name: 'Save rule' }).click();
    await page.getByRole('form', { name: RULE }).getByRole('status').getByText('Saved.').waitFor();

    // The weekly report: subscribed, then this week's preview.
    const report = page.getByTestId('weekly-report');
    await report.getByRole('button', { name: 'Send me the weekly report' }).click();
    await report
      .getByTestId('weekly-report-state')
      .getByText(/^You receive it/)
      .waitFor();
    await report.getByRole('button', { name: 'Preview this week’s report' }).click();
    const frame = report.locator('iframe');
    await frame.waitFor();
    // No permission at all: no script, form, popup or same-origin access.
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('title')).toMatch(/^Preview of /);
    await expect
      .poll(() => page.frameLocator('[data-testid=weekly-report] iframe').locator('body').textContent())
      .toContain('Report Shop');
    const text = (await report.locator('pre.caught-text').textContent()) ?? '';
    token = decodeURIComponent(/\/unsubscribe\?token=(\S+)/.exec(text)?.[1] ?? '');
    expect(text).toContain(`${CONSOLE_ORIGIN}/unsubscribe?token=`);
    expect(token).not.toBe('');

    // A script put in the frame does not run: it would tell the page, and change its own text. The
    // console's CSP, which a srcdoc frame inherits, would stop it too: hence the sandbox attribute is
    // asserted on its own above.
    // (A string: this file is type-checked without the DOM's types, as the other browser tests are.)
    const ran = await page.evaluate<unknown[]>(`(async () => {
      const iframe = document.querySelector('[data-testid=weekly-report] iframe');
      if (!iframe) throw new Error('no preview frame');
      const messages = [];
      window.addEventListener('message', (e) => messages.push(e.data));
      await new Promise((resolve) => {
        iframe.addEventListener('load', resolve, { once: true });
        iframe.srcdoc = '<p id="ran">no</p><script>document.getElementById("ran").textContent = "yes"; parent.postMessage("ran", "*");</' + 'script>';
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      return messages;
    })()`);
    expect(ran).toEqual([]);
    expect(await page.frameLocator('[data-testid=weekly-report] iframe').locator('#ran').textContent()).toBe('no');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The notifier's evaluation, twice a hold apart: the drop is seen, then confirmed.
    const deps = { db: h.db, consoleUrl: CONSOLE_ORIGIN, holdMs: 1_000 };
    const seenAt = new Date(Date.now() - 5_000);
    await evaluateProperty(deps, propertyId, seenAt);
    const sent = await evaluateProperty(deps, propertyId, new Date());
    expect(sent).toMatchObject([{ kind: 'crawler_hits_drop', type: 'alert.firing', emails: 1, webhooks: 0 }]);

    await page.reload();
    const kept = page.getByRole('form', { name: RULE });
    await kept.waitFor();
    expect(await kept.getByLabel('On').isChecked()).toBe(true);
    expect(await kept.getByLabel('Alert at a drop of').inputValue()).toBe('40');
    expect(await kept.getByLabel('Members I choose').isChecked()).toBe(true);
    expect(await kept.getByTestId('alert-rule-members').getByLabel(member.email).isChecked()).toBe(true);
    expect(await kept.getByTestId('alert-rule-members').getByLabel(owner.email).isChecked()).toBe(false);

    const item = page.getByTestId('alert-rule').filter({ has: page.getByRole('heading', { name: RULE }) });
    expect(await item.getByTestId('alert-rule-state').textContent()).toMatch(
      /^Alerting since \d+ \w+ \d{4}, \d\d:\d\d/,
    );
    const observed = (await item.getByTestId('alert-rule-observed').textContent()) ?? '';
    expect(observed).toContain('AI crawler hits: 20 from');
    expect(observed).toContain('200 the 7 days before (−90 %)');
    expect(observed).toContain('Last checked');
    const messages = page.getByTestId('alert-notifications').locator('tbody tr');
    expect(await messages.count()).toBe(1);
    const cells = await messages.first().locator('td').allTextContents();
    expect(cells.slice(1, 3)).toEqual(['Alert', RULE]);
    expect(cells[4]).toBe('1 email');
    // Words only: none of the API's ids reach the page.
    expect(await page.getByTestId('alert-rules').textContent()).not.toMatch(/crawler_hits_drop|alert\.firing|firing/);
    await ui.shot(page, 'alert-rules-owner');
    await page.context().close();
  });

  it('a member on a phone reads the rules without a control, and subscribes and stops their own report', async () => {
    const page = await signIn(member, { width: 390, height: 844 });
    await page.goto(settings);
    const section = page.getByTestId('alert-rules');
    const item = section.getByTestId('alert-rule').filter({ has: page.getByRole('heading', { name: RULE }) });
    await item.getByTestId('alert-rule-recipients').waitFor();
    expect(await item.getByTestId('alert-rule-recipients').textContent()).toContain(
      `Alerts at a drop of 40 %. Emails go to ${member.user.name} (${member.email}).`,
    );
    expect(await section.getByRole('form').count()).toBe(0);
    expect(await section.getByRole('button').count()).toBe(0);
    expect(await section.getByRole('checkbox').count()).toBe(0);
    await section.getByText('Owners and admins change the rules.').waitFor();

    const report = page.getByTestId('weekly-report');
    await report.getByRole('button', { name: 'Send me the weekly report' }).click();
    await report
      .getByTestId('weekly-report-state')
      .getByText(/^You receive it/)
      .waitFor();
    await report.getByRole('button', { name: 'Stop my weekly report' }).click();
    await report.getByTestId('weekly-report-state').getByText('You do not receive it.').waitFor();

    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await ui.shot(page, 'alert-rules-member-390');
    await page.context().close();
  });

  it('the report’s unsubscribe link stops it in one click without signing in; a forged one says so plainly', async () => {
    expect(token).not.toBe('');
    const subscribed = async () =>
      (await h.as(owner.token, teamId).get(`/api/properties/${propertyId}/weekly-report`)).body.subscribed;
    const page = await (await ui.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();

    // The same token with its signature changed: refused in words, nothing changed.
    await page.goto(`${ui.base}/unsubscribe?token=${encodeURIComponent(`${token.slice(0, -4)}AAAA`)}`);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    expect(await page.getByRole('alert').textContent()).toBe(BAD_UNSUBSCRIBE_LINK);
    expect(await subscribed()).toBe(true);

    await page.goto(`${ui.base}/unsubscribe?token=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { name: 'Unsubscribe from the weekly report' }).waitFor();
    // Opening the link changed nothing (link scanners open links): the click does.
    expect(await subscribed()).toBe(true);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    expect(await page.getByRole('status').textContent()).toBe(
      'You will receive no more weekly reports of Report Shop.',
    );
    expect(await subscribed()).toBe(false);
    await page.context().close();
  });
});
