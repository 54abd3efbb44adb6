import { addUtcDays, utcDay } from '@vt/db';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// The home overview and the onboarding checklist in Chromium: figures and trends from seeded
// answers and daily counts (the same data as the API test, placed around today), the "what
// changed" lines, and a new property's checklist ticking as its steps are done.

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

const today = utcDay(new Date());
const daysAgo = (n: number) => addUtcDays(today, -n);

async function teamWithProperty(name: string) {
  const owner = await h.signUp('owner');
  const { teamId } = await h.teamOf(owner);
  const as = h.as(owner.token, teamId);
  const created = await as.post('/api/properties', { name, domain: `${name.toLowerCase()}.example`, plan: 'growth' });
  return { owner, teamId, as, id: created.body.property.id as string };
}

/**
 * Answers over three weeks: 2 days ago 8 of 10 mention the brand, 9 days ago 4 of 10 (so the
 * last 7 days against the 7 before: 80% against 40%), 40 days ago 5 of 10 (the 30-day range's
 * previous period). Crawler hits and leads beside them.
 */
async function seedShop(propertyId: string) {
  const competitor = await h.db.competitor.create({ data: { propertyId, name: 'Initech', terms: ['Initech'] } });
  for (let i = 0; i < 10; i++) {
    const prompt = await h.db.prompt.create({ data: { propertyId, text: `prompt ${i}` } });
    for (const [ago, mentioned] of [
      [2, i < 8],
      [9, i < 4],
      [40, i < 5],
    ] as const) {
      const response = await h.db.response.create({
        data: {
          propertyId,
          promptId: prompt.id,
          model: 'chatgpt',
          day: daysAgo(ago),
          mentioned,
          matchedTerm: mentioned ? 'Shop' : null,
          position: mentioned ? 100 : null,
          sentiment: mentioned ? 0.5 : null,
          excerpt: 'an answer',
          text: 'an answer',
        },
      });
      if (ago === 2 && i >= 8) {
        await h.db.responseCompetitorMention.create({
          data: {
            responseId: response.id,
            competitorId: competitor.id,
            position: 5,
            propertyId,
            day: response.day,
            model: 'chatgpt',
          },
        });
      }
    }
  }
  const crawl = (ago: number, hits: number) =>
    h.db.crawlerDailyCount.create({
      data: { propertyId, day: daysAgo(ago), crawler: 'GPTBot', operator: 'openai', verification: 'verified', hits },
    });
  await crawl(2, 140);
  await crawl(9, 100);
  await h.db.aiLeadDailyCount.create({ data: { propertyId, day: daysAgo(1), platform: 'perplexity', leads: 3 } });
}

const cellsOf = async (page: Awaited<ReturnType<ConsoleInBrowser['signIn']>>, property: string) =>
  page.getByTestId('overview').locator(`tr[data-property="${property}"] td`).allTextContents();

describe('the home overview in the browser', () => {
  it('shows each figure with its trend, and what changed since last week', async () => {
    const t = await teamWithProperty('Shop');
    await seedShop(t.id);
    const page = await ui.signIn(t.owner as SignedUp);
    await page.getByTestId('overview').waitFor();
    // 30 days: 12 of 20 answers (60%) against 5 of 10 (50%); 240 GPTBot hits against none; 3 leads.
    const cells = await cellsOf(page, 'Shop');
    expect(cells[0]).toMatch(/^60%\+10 pts/);
    // Share of voice: 12 brand mentions of 12 + 2 Initech = 85.7%, against 5 of 5 (100%).
    expect(cells[1]).toMatch(/^85\.7%−14\.3 pts/);
    expect(cells[4]).toMatch(/^240new/);
    expect(cells[6]).toMatch(/^3new/);
    const changes = await page.getByTestId('what-changed').locator('li').allTextContents();
    expect(changes).toEqual([
      'Visibility on ChatGPT rose 40 points (from 40% to 80% of answers)',
      '3 AI leads from Perplexity (none the week before)',
      'GPTBot visits up 40% (from 100 to 140)',
      'A new competitor, Initech, was named in 2 answers (none the week before)',
    ]);
    await ui.shot(page, 'overview-30-days');

    // 7 days: 8 of 10 against the 7 days before, 4 of 10.
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/from=/);
    await expect.poll(async () => (await cellsOf(page, 'Shop'))[0]).toMatch(/^80%\+40 pts/);
    expect((await cellsOf(page, 'Shop'))[4]).toMatch(/^140\+40%/);
    await page.close();
  });

  it('ticks the checklist of a new property as its steps are done, on its pages and on the overview', async () => {
    const t = await teamWithProperty('Acme');
    const page = await ui.signIn(t.owner as SignedUp);
    // The overview lists the property's setup, nothing done yet.
    const home = page.getByTestId(`setup-${t.id}`);
    await home.waitFor();
    expect(await home.locator('li[data-done="true"]').count()).toBe(0);
    await home.getByRole('link', { name: 'Add the prompts to track' }).click();
    await page.waitForURL(/\/settings$/);

    const setup = page.getByTestId('property-setup');
    await setup.waitFor();
    const done = () =>
      setup.locator('li[data-done="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
    expect(await done()).toEqual([]);
    // One click adds a suggested prompt: the step ticks and the page's prompt list shows it.
    await setup.getByLabel('What you sell, in a few words').fill('web analytics');
    await setup.getByRole('button', { name: 'Suggest prompts' }).click();
    const first = setup.getByTestId('suggested-prompts').locator('li').first();
    await expect.poll(() => first.textContent()).toContain('What are the best web analytics tools?');
    await first.getByRole('button', { name: 'Add prompt' }).click();
    await expect.poll(done).toEqual(['prompts']);
    await expect
      .poll(() => page.getByTestId('prompts').textContent())
      .toContain('What are the best web analytics tools?');
    expect(await setup.getByTestId('suggested-prompts').textContent()).not.toContain('best web analytics tools');

    // An answer citing a competitor's site arrives: the answers step ticks and the site is suggested.
    const prompt = await h.db.prompt.findFirstOrThrow({ where: { propertyId: t.id } });
    const response = await h.db.response.create({
      data: {
        propertyId: t.id,
        promptId: prompt.id,
        model: 'perplexity',
        day: daysAgo(1),
        mentioned: false,
        excerpt: 'an answer',
        text: 'an answer',
      },
    });
    await h.db.responseSource.create({
      data: {
        responseId: response.id,
        ordinal: 0,
        url: 'https://hooli-insights.example/',
        domain: 'hooli-insights.example',
        propertyId: t.id,
        day: response.day,
        model: 'perplexity',
      },
    });
    await page.reload();
    await setup.waitFor();
    expect(await done()).toEqual(['prompts', 'answers']);
    await setup.getByText('Suggestions to start from').click();
    const suggested = setup.getByTestId('suggested-competitors').locator('li').first();
    expect(await suggested.textContent()).toContain('Hooli Insights');
    await suggested.getByRole('button', { name: 'Add competitor' }).click();
    await expect.poll(done).toEqual(['prompts', 'competitors', 'answers']);
    expect(await page.getByTestId('competitors').textContent()).toContain('Hooli Insights');

    // A crawl batch accepted by the gateway (its delivery-log row): the crawl step ticks.
    await h.db.deliveryLogEntry.create({
      data: { propertyId: t.id, channel: 'crawl', statusCode: 202, outcome: 'accepted 3 of 3 lines' },
    });
    await page.getByRole('link', { name: 'Crawl setup' }).first().click();
    await page.waitForURL(/\/crawl$/);
    await expect.poll(done).toEqual(['prompts', 'competitors', 'crawl', 'answers']);
    await ui.shot(page, 'property-setup');

    // Back home: the overview shows the same four steps done, the webhook still to do.
    await page.goto(`${ui.base}/t/${t.teamId}`);
    await home.waitFor();
    expect(
      await home.locator('li[data-done="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-step'))),
    ).toEqual(['webhook']);
    await page.close();
  });
});
