import { importAnswers } from '@vt/answers';
import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness } from '../testing/index.ts';

// The answers' insight views in headless Chromium over judged answers: the sources page's counts
// and a gap, the prompts × platforms matrix (also at 390 px, scrolling inside its own box), and a
// verdict opening its whole answer with the names marked, the citations as safe links, and an
// answer's markup shown as text, never run; axe-core finds no serious or critical violation on
// any of them.

// Several pages in Chromium beside other test files on two cores (see web-ui.e2e.test.ts).
vi.setConfig({ testTimeout: 120_000 });

const h = createConsoleHarness();
let ui: ConsoleInBrowser;

beforeAll(async () => {
  ui = await openConsoleInBrowser(h.appDeps);
}, 180_000);

afterAll(async () => {
  await ui?.close();
  await h.close();
});

/** axe-core's serious and critical violations on the page as it is now, as `rule: targets`. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the console's CSP refuses an injected script tag.
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const inPage = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await inPage.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

const INJECTED = '<img src=x onerror="window.__injected=1">';

async function seeded() {
  const owner = await h.signUp('insights-owner');
  const { teamId } = await h.teamOf(owner);
  const as = h.as(owner.token, teamId);
  const created = await as.post('/api/properties', { name: 'Acme', domain: 'acme.example', plan: 'growth' });
  const id = created.body.property.id as string;
  await as.post(`/api/properties/${id}/competitors`, { name: 'Globex' });
  await as.post(`/api/properties/${id}/competitors`, { name: 'Initech' });
  const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
  const line = (back: number, model: string, prompt: string, answer: string, citations: string[]) =>
    JSON.stringify({ propertyId: id, prompt, model, date: day(back), answer, citations });
  const P1 = 'best crm for startups';
  const imported = await importAnswers(h.db, [
    line(2, 'chatgpt', P1, 'Acme leads the market.', ['https://acme.example/pricing', 'https://news.example/a']),
    line(2, 'claude', P1, 'Globex and Initech are common choices.', [
      'https://reviews.example/crm',
      'https://g2.example/crm',
    ]),
    line(1, 'chatgpt', P1, `Globex is popular.\n**Acme** is excellent and loved by startups. ${INJECTED}`, [
      'https://g2.example/crm',
      'https://acme.example/pricing',
    ]),
    line(1, 'claude', P1, 'Acme is fine; Globex too.', ['https://docs.acme.example/start']),
    line(1, 'chatgpt', 'crm with the best api', 'Initech has the best API.', ['https://reviews.example/api']),
  ]);
  expect(imported.rejected).toEqual([]);
  return { owner, teamId, id };
}

describe('sources, prompts × platforms and the whole answer', () => {
  it('shows the most cited sources with their share of answers, the own pages and the gaps per platform', async () => {
    const t = await seeded();
    const page = await ui.signIn(t.owner);
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/answers`);
    await page.getByRole('link', { name: 'Sources' }).click();
    await page.getByTestId('source-domains').waitFor();
    expect(await page.getByTestId('sources-summary').textContent()).toBe(
      '5 of 5 answers cite at least one source: 5 websites, 6 pages.',
    );
    const rows = await page.getByTestId('source-domains').locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t'))).toEqual([
      ['acme.example (yours)', '2', '40%', '2'],
      ['g2.example', '2', '40%', '2'],
      ['reviews.example', '2', '40%', '2'],
      ['docs.acme.example (yours)', '1', '20%', '1'],
      ['news.example', '1', '20%', '1'],
    ]);
    const own = await page.getByTestId('own-pages').locator('tbody tr').allInnerTexts();
    expect(own.map((r) => r.split('\t'))).toEqual([
      ['https://acme.example/pricing', '2', '40%'],
      ['https://docs.acme.example/start', '1', '20%'],
    ]);
    // ChatGPT names the brand beside acme, g2 and news; Initech beside reviews.example alone.
    const chatgptGaps = await page.getByTestId('gap-table-chatgpt').locator('tbody tr').allInnerTexts();
    expect(chatgptGaps.map((r) => r.split('\t'))).toEqual([['reviews.example', '1', 'Initech']]);
    expect(await page.getByTestId('gaps-claude').locator('h3').textContent()).toBe('Claude');
    await ui.shot(page, 'sources');
    expect(await seriousViolations(page)).toEqual([]);

    // The filter offers the platforms that answered, by name, and one platform stays in the URL.
    expect(await page.getByRole('combobox', { name: 'Platform' }).locator('option').allTextContents()).toEqual([
      'All platforms',
      'ChatGPT',
      'Claude',
    ]);
    await page.getByRole('combobox', { name: 'Platform' }).selectOption('claude');
    await page.waitForURL(/model=claude/);
    await expect
      .poll(() => page.getByTestId('sources-summary').textContent())
      .toBe('2 of 2 answers cite at least one source: 3 websites, 3 pages.');
    await page.close();
  });

  it('shows each prompt per platform and opens a verdict’s whole answer with the names marked and safe links', async () => {
    const t = await seeded();
    const page = await ui.signIn(t.owner);
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/prompts`);
    const matrix = page.getByTestId('prompt-matrix');
    await matrix.waitFor();
    expect(await matrix.locator('thead th').allInnerTexts()).toEqual(['Prompt', 'ChatGPT', 'Claude']);
    const [first, second] = await matrix.locator('tbody tr').all();
    if (!first || !second) throw new Error('two prompts expected');
    const text = async (cell: Locator) => ((await cell.textContent()) ?? '').replace(/\s+/g, ' ').trim();
    const chatgpt = await text(first.getByTestId('cell-chatgpt'));
    expect(chatgpt).toContain('Mentioned 2nd of 2 brands named · positive');
    expect(chatgpt).toContain('Named 2 of 2 days (before: 0 of 0)');
    expect(await text(first.getByTestId('cell-claude'))).toContain('Mentioned 1st of 2 brands named · positive');
    expect(await text(second.getByTestId('cell-chatgpt'))).toContain('Not mentioned 1 competitor named');
    expect(await second.getByTestId('cell-claude').textContent()).toBe('No answer yet');
    await ui.shot(page, 'prompt-matrix');
    expect(await seriousViolations(page)).toEqual([]);

    await first.getByTestId('cell-chatgpt').getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('answer-text').waitFor();
    await page.waitForURL(/answer=[0-9a-f-]{36}/);
    expect(await dialog.getByTestId('answer-verdict').textContent()).toContain('2nd of 2 brands named');
    expect(await dialog.locator('[data-testid=answer-text] mark.competitor').allInnerTexts()).toEqual(['Globex']);
    expect(await dialog.locator('[data-testid=answer-text] mark.brand').allInnerTexts()).toEqual(['Acme']);
    // Markdown's bold is rendered, its markers hidden; the rest of the text shows as written.
    expect(await dialog.locator('[data-testid=answer-text] strong mark.brand').count()).toBe(1);
    expect(await dialog.getByTestId('answer-text').textContent()).not.toContain('**');
    // The answer's markup is text: shown, never an element, never run.
    expect(await dialog.getByTestId('answer-text').textContent()).toContain(INJECTED);
    expect(await dialog.locator('[data-testid=answer-text] img').count()).toBe(0);
    expect(await page.evaluate('window.__injected')).toBeUndefined();
    const links = dialog.getByTestId('answer-citations').locator('a');
    expect(await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.rel, a.target]))).toEqual([
      ['https://g2.example/crm', 'noopener noreferrer nofollow', '_blank'],
      ['https://acme.example/pricing', 'noopener noreferrer nofollow', '_blank'],
    ]);
    await ui.shot(page, 'whole-answer', undefined, { fullPage: false });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.has('answer')).toBe(false);
    await page.close();
  });

  it('opens the whole answer from the answers list, where only an excerpt is shown', async () => {
    const t = await seeded();
    const page = await ui.signIn(t.owner);
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/answers`);
    await page.getByTestId('responses').waitFor();
    await page.getByRole('button', { name: 'Read the whole answer' }).first().click();
    await page.getByRole('dialog').getByTestId('answer-text').waitFor();
    const id = new URL(page.url()).searchParams.get('answer') as string;
    const stored = await h.db.response.findUniqueOrThrow({ where: { id } });
    // The whole text, bold markers (one seeded answer has them) hidden.
    expect(await page.getByRole('dialog').getByTestId('answer-text').textContent()).toBe(
      stored.text.replaceAll('**', ''),
    );
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.close();
  });

  it('keeps the matrix and the sources within a 390 px phone, the matrix scrolling in its own box', async () => {
    const t = await seeded();
    const page = await ui.signIn(t.owner, { width: 390, height: 844 });
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/prompts`);
    await page.getByTestId('prompt-matrix').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const box = page.locator('.matrix-scroll');
    expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await ui.shot(page, 'prompt-matrix-390');
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/sources`);
    await page.getByTestId('source-domains').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.close();
  });
});
