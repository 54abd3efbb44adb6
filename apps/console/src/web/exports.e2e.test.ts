import { readFileSync } from 'node:fs';
import { BOM, parseCsv, seedExportRows } from '@vt/exports/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// "Export CSV" in Chromium: the activity and answers views save the range they show as the file
// the console names, and a member sees the leads export disabled with the reason.

vi.setConfig({ testTimeout: 120_000 });

const h = createConsoleHarness();
let ui: ConsoleInBrowser;
let owner: SignedUp;
let member: SignedUp;
let teamId = '';
let propertyId = '';
beforeAll(async () => {
  ui = await openConsoleInBrowser(h.appDeps);
  owner = await h.signUp('export-owner');
  member = await h.signUp('export-member');
  ({ teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]));
  const created = await h
    .as(owner.token, teamId)
    .post('/api/properties', { name: 'Acme Analytics', domain: 'acme.example', plan: 'growth' });
  propertyId = created.body.property.id;
  await seedExportRows(h.db, propertyId);
}, 180_000);
afterAll(async () => {
  await ui?.close();
  await h.close();
});

const RANGE = '?from=2026-04-01&to=2026-04-02';

/** Clicks a section's Export CSV and reads the file the browser saved. */
async function exported(page: Page, kind: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByTestId(`export-${kind}`)
      .getByRole('button', { name: /^Export CSV: / })
      .click(),
  ]);
  const text = readFileSync((await download.path()) as string, 'utf8');
  return { name: download.suggestedFilename(), text };
}

describe('Export CSV in the console', () => {
  it('saves the activity view’s sections and the answers over the range the page shows', async () => {
    const page = await ui.signIn(owner);
    await page.goto(`${ui.base}/t/${teamId}/p/${propertyId}/activity${RANGE}`);
    await page.getByTestId('total-hits').waitFor();

    const crawlers = await exported(page, 'crawlers');
    expect(crawlers.name).toBe('acme-analytics-crawlers-2026-04-01-to-2026-04-02.csv');
    expect(parseCsv(crawlers.text).map((r) => r[1])).toEqual(['Crawler', 'ClaudeBot', 'GPTBot', 'Applebot']);
    const referrals = await exported(page, 'referrals');
    expect(parseCsv(referrals.text)).toHaveLength(4);
    const leads = await exported(page, 'leads');
    expect(leads.name).toBe('acme-analytics-leads-2026-04-01-to-2026-04-02.csv');
    expect(leads.text.startsWith(`${BOM}Received at (UTC),`)).toBe(true);
    expect(parseCsv(leads.text).map((r) => r[11])).toEqual(['Event id', 'evt-1', 'evt-2']);

    await page.goto(`${ui.base}/t/${teamId}/p/${propertyId}/answers${RANGE}`);
    const answers = await exported(page, 'answers');
    expect(answers.name).toBe('acme-analytics-answers-2026-04-01-to-2026-04-02.csv');
    expect(parseCsv(answers.text).map((r) => r[1])).toEqual(['Platform', 'ChatGPT', 'Perplexity', 'ChatGPT']);
    await page.close();
  });

  it('shows a member the leads export disabled, with the reason, and lets them export the rest', async () => {
    const page = await ui.signIn(member);
    await page.goto(`${ui.base}/t/${teamId}/p/${propertyId}/activity${RANGE}`);
    const leads = page.getByTestId('export-leads');
    await expect.poll(() => leads.getByRole('button').isDisabled()).toBe(true);
    expect(await leads.textContent()).toContain('Owners and admins export leads');
    const crawlers = await exported(page, 'crawlers');
    expect(parseCsv(crawlers.text)).toHaveLength(4);
    await page.close();
  });
});
