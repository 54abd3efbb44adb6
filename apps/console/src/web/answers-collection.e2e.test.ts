import { startVendorReplays, vendorFixture } from '@vt/answer-collector/testing';
import { type RunningApp, scratchDatabase, startApp } from '@vt/test-support';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { type ConsoleHarness, createConsoleHarness, type SignedUp } from '../testing/index.ts';

// Answer collection as a marketer sees it, in Chromium, with the real answer collector (its own
// process, over BullMQ and Postgres) asking, through the vendors' SDKs, local servers that replay
// the platforms' documented answers: with no
// key, the answers page says why nothing arrives; with keys, which platforms ask, when next, and
// what the last run did; an owner starts a collection and its answers arrive, shown with the
// platforms' product names and the brand's rank among the brands each answer names. On a
// database of its own: the collector's platform rows are global to a database.

vi.setConfig({ testTimeout: 120_000 });

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let h: ConsoleHarness;
let ui: ConsoleInBrowser;
let fake: Awaited<ReturnType<typeof startVendorReplays>>;
let collector: RunningApp | undefined;

beforeAll(async () => {
  scratch = await scratchDatabase('answers_collection_e2e');
  h = createConsoleHarness({ db: scratch.db });
  fake = await startVendorReplays((_platform, prompt) => ({
    text: `For "${prompt}", Globex is popular and Acme is excellent.`,
    citations: ['https://review.example/fans'],
  }));
  ui = await openConsoleInBrowser(h.appDeps);
}, 120_000);

afterAll(async () => {
  await stopCollector();
  await ui?.close();
  await fake?.close();
  await h?.close();
  await scratch?.drop();
});

/** The collector as deployed, on this file's database and queue prefix, with the given keys. */
async function startCollector(keys: Record<string, string>) {
  await stopCollector();
  collector = await startApp(
    'apps/answer-collector/src/main.ts',
    'ANSWER_COLLECTOR_METRICS_PORT',
    { DATABASE_URL: scratch.url, QUEUE_PREFIX: h.prefix, ...keys },
    60_000,
  );
}

async function stopCollector() {
  if (!collector) return;
  collector.child.kill('SIGTERM');
  await collector.exited;
  collector = undefined;
}

async function propertyOf(owner: SignedUp, member: SignedUp) {
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = h.as(owner.token, teamId);
  const created = await as.post('/api/properties', {
    name: 'Acme',
    domain: 'acme.example',
    plan: 'growth',
    brandTerms: ['Acme'],
  });
  const id = created.body.property.id as string;
  await as.post(`/api/properties/${id}/competitors`, { name: 'Globex' });
  await as.post(`/api/properties/${id}/prompts`, { text: 'best desk fan' });
  return { teamId, id };
}

const platformOptions = (page: Page) =>
  page.getByRole('combobox', { name: 'Platform' }).locator('option').allTextContents();

/** Reloads until `check` passes: the collector works a moment after the click. */
async function eventually(page: Page, check: () => Promise<boolean>, timeoutMs = 40_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the page never showed the collected answers');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await page.reload();
    await page.getByTestId('collection').waitFor();
  }
}

describe('answer collection in the console', () => {
  it('with no platform key, the answers page says why no answer arrives and names the keys to set', async () => {
    await startCollector({});
    const owner = await h.signUp('nokey-owner');
    const member = await h.signUp('nokey-member');
    const { teamId, id } = await propertyOf(owner, member);
    const page = await ui.signIn(owner);
    await page.goto(`${ui.base}/t/${teamId}/p/${id}/answers`);
    await page.getByTestId('collection-none').waitFor();
    const none = (await page.getByTestId('collection-none').textContent()) ?? '';
    expect(none).toContain('no AI platform key is set on this deployment');
    expect(none).toContain('OPENAI_API_KEY for ChatGPT');
    expect(none).toContain('ANTHROPIC_API_KEY for Claude');
    expect(none).toContain('docs/operators.md');
    expect(await page.getByRole('button', { name: 'Collect answers now' }).count()).toBe(0);
    // No platform asks and none has answers: the filter offers none of them (Copilot least of all).
    expect(await platformOptions(page)).toEqual(['All platforms']);
    await ui.shot(page, 'answers-no-platform-key');

    await page.goto(`${ui.base}/t/${teamId}/p/${id}/settings`);
    await page.getByTestId('prompts-schedule').waitFor();
    expect(await page.getByTestId('prompts-schedule').textContent()).toContain('No AI platform key is set');
    expect(await page.getByTestId('prompts-schedule').textContent()).not.toContain('every AI platform');
    expect(await page.getByTestId('copilot-note').textContent()).toContain('Copilot is never asked');
    await page.close();
  });

  it('with keys, tells which platforms ask and when; an owner collects now and the answers arrive, ranked, by product name', async () => {
    await startCollector({
      OPENAI_API_KEY: 'sk-e2e-fake',
      OPENAI_BASE_URL: fake.baseUrls.chatgpt,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-fake',
      ANTHROPIC_BASE_URL: fake.baseUrls.claude,
      COLLECT_AT_UTC: '06:00',
      OPENAI_DAILY_REQUESTS: '50',
    });
    const owner = await h.signUp('collect-owner');
    const member = await h.signUp('collect-member');
    const { teamId, id } = await propertyOf(owner, member);

    const page = await ui.signIn(owner);
    // Where the buyers are (issue 32 item 3): set in the settings, asked with, shown on each answer.
    await page.goto(`${ui.base}/t/${teamId}/p/${id}/settings`);
    const where = page.getByRole('form', { name: 'Where your buyers are' });
    await where.getByLabel('Country').selectOption('DE');
    await where.getByLabel('Language').fill('de');
    await where.getByRole('button', { name: 'Save location' }).click();
    await expect.poll(async () => (await scratch.db.property.findUniqueOrThrow({ where: { id } })).country).toBe('DE');
    expect((await scratch.db.property.findUniqueOrThrow({ where: { id } })).language).toBe('de');
    // The prompt is asked in English from Germany: its own language, the property's country.
    await page.getByText('Where', { exact: true }).click();
    const own = page.getByRole('form', { name: 'Where “best desk fan” is asked' });
    await own.getByLabel('Language').fill('en');
    await own.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('prompt-location').getByText('asked as Germany · English (its own)').waitFor();
    expect((await scratch.db.prompt.findFirstOrThrow({ where: { propertyId: id } })).language).toBe('en');

    await page.goto(`${ui.base}/t/${teamId}/p/${id}/answers`);
    await page.getByTestId('collection-summary').waitFor();
    const summary = (await page.getByTestId('collection-summary').textContent()) ?? '';
    expect(summary).toContain('asked once a day on ChatGPT and Claude, at 06:00 UTC');
    expect(summary).toMatch(/The next run is \w{3} \d{1,2}, \d{4}, 6:00\sAM UTC\./);
    const runs = (await page.getByTestId('collection-runs').textContent()) ?? '';
    expect(runs).toContain('ChatGPT: no run yet for this property.');
    const notAsked = (await page.getByTestId('collection').textContent()) ?? '';
    expect(notAsked).toContain('Not asked: Perplexity (no key: PERPLEXITY_API_KEY is not set)');
    expect(notAsked).toContain('Copilot (Microsoft offers no public API for it)');
    // The filter offers the platforms that ask, by name; never Copilot, which has no answer here,
    // and the page says plainly why.
    expect(await platformOptions(page)).toEqual(['All platforms', 'ChatGPT', 'Claude']);
    const copilotNote = (await page.getByTestId('copilot-note').textContent()) ?? '';
    expect(copilotNote).toContain('Microsoft offers no public API that answers as Copilot does');
    expect(copilotNote).toContain('only where they were imported');

    // Claude stops at its output limit (issue 32): its documented max_tokens answer, the same words.
    const partial = vendorFixture('claude', 'max-tokens');
    partial.body.content = [{ type: 'text', text: 'For "best desk fan", Globex is popular and Acme is excellent.' }];
    fake.next('claude', partial);
    await page.getByRole('button', { name: 'Collect answers now' }).click();
    await page.getByText('Collection started: answers arrive within a few minutes').waitFor();
    expect(await page.getByRole('button', { name: 'Collect answers now' }).isDisabled()).toBe(true);

    await eventually(page, async () => {
      const text = (await page.getByTestId('collection-runs').textContent()) ?? '';
      return (text.match(/Finished .*?\(started from the console\): 1 of 1 answers stored\./g) ?? []).length === 2;
    });
    await page.getByTestId('responses').waitFor();
    const answers = (await page.getByTestId('responses').textContent()) ?? '';
    expect(answers).toContain('ChatGPT');
    expect(answers).toContain('Claude');
    expect(answers).not.toContain('chatgpt ·');
    expect(await page.getByTestId('asked-from').allTextContents()).toEqual([
      ' · asked as Germany · English',
      ' · asked as Germany · English',
    ]);
    // The partial answer is marked in the list and, with the vendor's reason, in the answer itself.
    expect(await page.getByTestId('truncated').allTextContents()).toEqual([' · partial answer']);
    await page
      .getByTestId('responses')
      .locator('li', { hasText: 'Claude' })
      .getByRole('button', { name: 'Read the whole answer' })
      .click();
    await page.getByTestId('answer-truncated').waitFor();
    expect(await page.getByTestId('answer-truncated').textContent()).toContain(
      'Partial answer: the platform stopped before the end (max_tokens)',
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    // Spend against budget (issue 32 item 4), from the collectors' counter.
    expect((await page.getByTestId('spend-today').allTextContents()).sort()).toEqual([
      '1 of 50 requests today',
      '1 request today (no daily budget)',
    ]);
    // "Globex is popular and Acme is excellent": Acme is named second of the two brands.
    const ranks = await page.getByTestId('rank').allTextContents();
    expect(ranks).toHaveLength(2);
    const offset = `For "best desk fan", Globex is popular and `.length;
    for (const rank of ranks) expect(rank).toBe(`named 2nd of 2 brands (first at character ${offset})`);
    expect(await page.getByTestId('visibility-by-platform').textContent()).toContain('ChatGPT');
    // Within the hour, the next collection waits, and the page says until when.
    expect(await page.getByTestId('collect-now-note').textContent()).toMatch(
      /A collection was started within the hour; the next can start/,
    );
    expect(
      fake.requests
        .filter((r) => r.prompt === 'best desk fan')
        .map((r) => r.platform)
        .sort(),
    ).toEqual(['chatgpt', 'claude']);
    await ui.shot(page, 'answers-collected');
    await page.close();

    // A member reads the same status and cannot start a collection; on a phone, the section fits.
    const asMember = await ui.signIn(member, { width: 390, height: 844 });
    await asMember.goto(`${ui.base}/t/${teamId}/p/${id}/answers`);
    await asMember.getByTestId('collection-runs').waitFor();
    expect(await asMember.getByRole('button', { name: 'Collect answers now' }).count()).toBe(0);
    const section = await asMember
      .getByTestId('collection')
      .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
    expect(section.scroll).toBeLessThanOrEqual(section.client);
    expect(section.right).toBeLessThanOrEqual(390);
    await ui.shot(asMember, 'answers-collected-phone');
    await asMember.goto(`${ui.base}/t/${teamId}/p/${id}/settings`);
    await asMember.getByTestId('prompts-schedule').waitFor();
    expect(await asMember.getByTestId('prompts-schedule').textContent()).toMatch(
      /^Each active prompt is asked once a day on ChatGPT and Claude, at 06:00 UTC\. The next run is /,
    );
    await asMember.close();
  });
});
