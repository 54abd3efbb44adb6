import AxeBuilder from '@axe-core/playwright';
import { startWebhookDeliveryWorker, startWebhookReceiver } from '@vt/outgoing-webhooks/testing';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// The property settings page's alert webhooks in Chromium: an owner adds one (a refused URL says
// why in plain words), sends a test event that a real receiver gets through the real delivery
// worker, reads its log, and removes it; a member sees the list without URL, secret or controls.
// This deployment allows private targets, as a self-hosted one with a LAN receiver would.

vi.setConfig({ testTimeout: 120_000 });

const h = createConsoleHarness({ alertWebhooks: { policy: { allowPrivateTargets: true } } });
let ui: ConsoleInBrowser;
let worker: Awaited<ReturnType<typeof startWebhookDeliveryWorker>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  [ui, worker, receiver] = await Promise.all([
    openConsoleInBrowser(h.appDeps),
    startWebhookDeliveryWorker({ prefix: h.prefix, policy: { allowPrivateTargets: true } }),
    startWebhookReceiver(),
  ]);
}, 180_000);
afterAll(async () => {
  await ui?.close();
  await worker?.close();
  await receiver?.close();
  await h.close();
});

/** Signed in, in a context of its own: axe opens a page beside it, which a context allows. */
async function signIn(person: SignedUp): Promise<Page> {
  const page = await (await ui.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${ui.base}/sign-in`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/t\/[0-9a-f-]{36}$/);
  return page;
}

async function seriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

describe('alert webhooks on the property settings page', () => {
  it('an owner adds, tests, reads the log of and removes a webhook; a member only reads', async () => {
    const owner = await h.signUp('hook-owner');
    const member: SignedUp = await h.signUp('hook-member');
    const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
    const created = await h
      .as(owner.token, teamId)
      .post('/api/properties', { name: 'Hook Shop', domain: 'hook-shop.example', plan: 'growth' });
    const settings = `${ui.base}/t/${teamId}/p/${created.body.property.id}/settings`;

    const page = await signIn(owner);
    await page.goto(settings);
    const section = page.getByTestId('alert-webhooks');
    await section.getByText('No webhook yet.').waitFor();

    const form = page.getByRole('form', { name: 'Add a webhook' });
    await form.getByLabel('Format').selectOption('standard');
    await form.getByLabel('Webhook URL').fill('ftp://files.example.test/hook');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await expect
      .poll(() => section.getByRole('alert').textContent())
      .toBe('Please check the form. The webhook URL must be an http or https URL.');

    await form.getByLabel('Webhook URL').fill(receiver.url);
    await form.getByLabel('Description (optional)').fill('Ops receiver');
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const item = section.getByTestId('alert-webhook');
    await item.getByText('Ops receiver').waitFor();
    const secret = (await item.getByTestId('alert-webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await item.getByRole('button', { name: 'Send test' }).click();
    const [request] = await receiver.waitFor(1);
    expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toMatchObject({
      type: 'alert.test',
    });
    await expect
      .poll(
        async () => {
          await item.getByRole('button', { name: /log/ }).click();
          return item.getByTestId('alert-webhook-log').locator('tbody').textContent();
        },
        { timeout: 10_000 },
      )
      .toContain('delivered');
    expect(await item.getByTestId('alert-webhook-log').locator('tbody').textContent()).toContain('HTTP 200');

    const asMember = await signIn(member);
    await asMember.goto(settings);
    const seen = asMember.getByTestId('alert-webhooks').getByTestId('alert-webhook');
    await seen.getByText('Ops receiver').waitFor();
    expect(await seen.textContent()).not.toContain(receiver.url);
    expect(await seen.getByTestId('alert-webhook-secret').count()).toBe(0);
    expect(await seen.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await asMember.getByRole('form', { name: 'Add a webhook' }).count()).toBe(0);

    await item.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove webhook' }).click();
    await section.getByText('No webhook yet.').waitFor();
  });
});
