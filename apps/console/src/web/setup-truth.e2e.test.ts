import { deriveCrawlToken } from '@vt/credentials';
import { testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// The setup dialogs, the activity page and the team settings, in headless Chromium over the real
// console app and Postgres, as a new marketer reads them: a refusal after accepted batches is
// named beside a badge that still says Connected, a Free property is warned of before its token,
// the example line is dated today, lead bodies read as fields, Verified does not say 0% on a new
// site, operators and platforms have their names, and the team's logo and time zone show.

vi.setConfig({ testTimeout: 120_000 });

const h = createConsoleHarness();
let ui: ConsoleInBrowser;

beforeAll(async () => {
  ui = await openConsoleInBrowser(h.appDeps);
}, 120_000);

afterAll(async () => {
  await ui?.close();
  await h.close();
});

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

async function teamWithProperty(plan: 'free' | 'growth', member?: SignedUp) {
  const owner = await h.signUp('truth-owner');
  const { teamId } = await h.teamOf(owner, member ? [{ person: member, role: 'member' }] : []);
  const id = (await h.as(owner.token, teamId).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan }))
    .body.property.id as string;
  return { owner, teamId, id };
}

describe('the setup dialogs, told truthfully', () => {
  it('[CRAWL-30] one refused batch after accepted ones: Connected, with the refusal and its fix named, times in the team’s zone', async () => {
    const t = await teamWithProperty('growth');
    await h.as(t.owner.token, t.teamId).patch('/api/team', { settings: { timeZone: 'Asia/Tokyo' } });
    await h.db.deliveryLogEntry.createMany({
      data: [
        { propertyId: t.id, channel: 'crawl', statusCode: 202, outcome: 'accepted', createdAt: minutesAgo(120) },
        {
          propertyId: t.id,
          channel: 'crawl',
          statusCode: 401,
          outcome: 'rejected; nothing stored',
          reason: 'invalid_token',
          fix: 'Use the current token from the setup dialog.',
          createdAt: minutesAgo(10),
        },
      ],
    });
    const page = await ui.signIn(t.owner);
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/crawl`);
    await page.getByTestId('crawl-status').waitFor();
    expect(await page.getByTestId('crawl-status').textContent()).toBe('connected');
    const warning = (await page.getByTestId('crawl-warning').textContent()) ?? '';
    expect(warning).toContain('was refused (401: invalid_token)');
    expect(warning).toContain('Use the current token from the setup dialog.');
    expect(await page.getByText('every batch is turned away').count()).toBe(0);
    // The log's times are in the team's time zone, which they name.
    expect(await page.getByTestId('delivery-log').locator('tbody tr').first().textContent()).toContain('GMT+9');
    expect(warning).toContain('GMT+9');

    // The example line is dated now (UTC), so pasted as is it lands in today's charts.
    await page.getByText('Node.js 20+: a batch of events').click();
    const node = (await page.locator('pre', { hasText: 'const events' }).textContent()) ?? '';
    expect(node).toContain(`"timestamp":"${new Date().toISOString().slice(0, 10)}T`);
    expect(node).not.toContain('2026-01-01');
    await ui.shot(page, 'crawl-setup-refused-once');
    await page.close();
  });

  it('[CRAWL-22] a Free property’s dialogs say before the token that batches are refused, and owners how to change plan', async () => {
    const member = await h.signUp('truth-member');
    const t = await teamWithProperty('free', member);
    const asOwner = await ui.signIn(t.owner);
    await asOwner.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/crawl`);
    const warning = asOwner.getByTestId('plan-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Free plan, which does not take in crawl logs');
    expect(await warning.textContent()).toContain('refused (402, payment required)');
    await warning.getByRole('link', { name: 'Brand and prompts' }).waitFor();
    // Said before the token and the snippets, not after them.
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, t.id, 1);
    const html = await asOwner.content();
    expect(html.indexOf('data-testid="plan-warning"')).toBeLessThan(html.indexOf(token));
    expect(html.indexOf('data-testid="plan-warning"')).toBeGreaterThan(-1);

    await asOwner.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/webhook`);
    await asOwner.getByTestId('plan-warning').waitFor();
    expect(await asOwner.getByTestId('plan-warning').textContent()).toContain('read API (/v1) returns nothing');
    await ui.shot(asOwner, 'webhook-setup-free');
    await asOwner.close();

    const asMember = await ui.signIn(member);
    await asMember.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/crawl`);
    await asMember.getByTestId('plan-warning').waitFor();
    expect(await asMember.getByTestId('plan-warning').textContent()).toContain('Ask an owner or admin');
    expect(await asMember.getByTestId('plan-warning').getByRole('link').count()).toBe(0);
    await asMember.close();

    // A paid property has no such warning.
    const paid = await teamWithProperty('growth');
    const page = await ui.signIn(paid.owner);
    await page.goto(`${ui.base}/t/${paid.teamId}/p/${paid.id}/crawl`);
    await page.getByTestId('crawl-token').waitFor();
    expect(await page.getByTestId('plan-warning').count()).toBe(0);
    await page.close();
  });

  it('[LEAD-16] a refusal after a stored lead stays Verified with the refusal named; lead bodies read as fields, raw JSON behind a toggle', async () => {
    const t = await teamWithProperty('growth');
    const lead = await h.db.lead.create({
      data: {
        propertyId: t.id,
        eventId: 'evt-stored',
        contact: 'ada@example.com',
        matched: true,
        platform: 'chatgpt',
        receivedAt: minutesAgo(60),
        day: new Date(minutesAgo(60).toISOString().slice(0, 10)),
      },
    });
    const body = JSON.stringify({ contact: 'ada@example.com', referrer: 'https://chatgpt.com/', utmSource: 'news' });
    await h.db.deliveryLogEntry.createMany({
      data: [
        {
          propertyId: t.id,
          channel: 'webhook',
          statusCode: 200,
          outcome: 'stored lead',
          eventId: 'evt-stored',
          leadId: lead.id,
          requestBody: body,
          createdAt: minutesAgo(60),
        },
        {
          propertyId: t.id,
          channel: 'webhook',
          statusCode: 401,
          outcome: 'rejected',
          reason: 'invalid_signature',
          fix: 'Sign {id}.{timestamp}.{body} with the signing secret.',
          createdAt: minutesAgo(5),
        },
      ],
    });
    const page = await ui.signIn(t.owner);
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/webhook`);
    await page.getByTestId('webhook-status').waitFor();
    expect(await page.getByTestId('webhook-status').textContent()).toBe('verified');
    expect(await page.getByTestId('webhook-warning').textContent()).toContain('was refused (401: invalid_signature)');

    const fields = page.getByTestId('lead-body').locator('dl');
    expect(await fields.locator('dt').allTextContents()).toEqual(['Contact', 'Referrer', 'UTM source']);
    expect(await fields.locator('dd').allTextContents()).toEqual(['ada@example.com', 'https://chatgpt.com/', 'news']);
    const raw = page.getByTestId('lead-body').locator('pre');
    expect(await raw.isVisible()).toBe(false);
    await page.getByTestId('lead-body').getByText('Raw JSON').click();
    expect(await raw.isVisible()).toBe(true);
    expect(await raw.textContent()).toBe(body);
    await ui.shot(page, 'webhook-setup-refused-once');
    await page.close();
  });

  it('summarises failed authentication in one row per reason, "401 invalid token × 37 since 14:02", that moved no status (issue 33)', async () => {
    const t = await teamWithProperty('growth');
    await h.as(t.owner.token, t.teamId).patch('/api/team', { settings: { timeZone: 'UTC' } });
    const first = minutesAgo(30);
    const since = first.toISOString().slice(11, 16); // HH:MM in UTC, the team's zone
    const summary = (channel: 'crawl' | 'webhook', reason: string, attempts: number) => ({
      propertyId: t.id,
      channel,
      statusCode: 401,
      outcome: 'rejected; nothing stored',
      reason,
      fix:
        reason === 'invalid_token' ? 'Use the current token from the setup dialog.' : 'Sign with the signing secret.',
      authenticated: false,
      attempts,
      firstAttemptAt: first,
      createdAt: minutesAgo(1),
    });
    await h.db.deliveryLogEntry.createMany({
      data: [
        { propertyId: t.id, channel: 'crawl', statusCode: 202, outcome: 'accepted', createdAt: minutesAgo(120) },
        summary('crawl', 'invalid_token', 37),
        summary('webhook', 'invalid_signature', 12),
      ],
    });
    const page = await ui.signIn(t.owner);
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/crawl`);
    await page.getByTestId('delivery-log').waitFor();
    const crawlRow = page.getByTestId('delivery-log').getByTestId('failed-attempts');
    expect(await crawlRow.count()).toBe(1);
    const crawlText = (await crawlRow.textContent()) ?? '';
    expect(crawlText).toContain(`401 invalid token × 37 since ${since}`);
    expect(crawlText).toContain('did not change the status');
    // Newest by its last attempt, the summary is first; the status is still the sender's: Connected,
    // with no refusal named (a summary never decides it).
    expect(await page.getByTestId('delivery-log').locator('tbody tr').first().getAttribute('data-testid')).toBe(
      'failed-attempts',
    );
    expect(await page.getByTestId('crawl-status').textContent()).toBe('connected');
    expect(await page.getByTestId('crawl-warning').count()).toBe(0);

    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/webhook`);
    await page.getByTestId('webhook-log').waitFor();
    const hookText = (await page.getByTestId('webhook-log').getByTestId('failed-attempts').textContent()) ?? '';
    expect(hookText).toContain(`401 invalid signature × 12 since ${since}`);
    expect(hookText).toContain('did not change the status');
    expect(await page.getByTestId('webhook-status').textContent()).not.toBe('rejecting');
    expect(await page.getByTestId('webhook-warning').count()).toBe(0);
    await ui.shot(page, 'webhook-setup-failed-attempts');
    await page.close();
  });
});

describe('the activity page and team settings', () => {
  it('says Verified is not checked yet on a new site, and names operators and platforms properly', async () => {
    const t = await teamWithProperty('growth');
    const page = await ui.signIn(t.owner);
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/activity`);
    await page.getByTestId('verified-share').waitFor();
    expect(await page.getByTestId('verified-share').textContent()).toContain('Not checked yet');
    expect(await page.getByTestId('verified-share').textContent()).not.toContain('0%');

    const day = new Date(new Date().toISOString().slice(0, 10));
    await h.db.crawlerDailyCount.createMany({
      data: [
        { propertyId: t.id, day, crawler: 'GPTBot', operator: 'openai', verification: 'verified', hits: 6 },
        { propertyId: t.id, day, crawler: 'GPTBot', operator: 'openai', verification: 'unverified', hits: 2 },
        { propertyId: t.id, day, crawler: 'ClaudeBot', operator: 'anthropic', verification: 'unverifiable', hits: 10 },
      ],
    });
    await h.db.aiReferralDailyCount.create({
      data: { propertyId: t.id, day, platform: 'chatgpt', landingPath: '/pricing', visits: 3 },
    });
    await page.reload();
    await page.getByTestId('crawlers').waitFor();
    // 6 of the 8 hits that could be checked; the 10 unverifiable ones are left out of the share.
    expect(await page.getByTestId('verified-share').textContent()).toContain('75%');
    const crawlers = (await page.getByTestId('crawlers').textContent()) ?? '';
    expect(crawlers).toContain('OpenAI');
    expect(crawlers).toContain('Anthropic');
    expect(crawlers).not.toMatch(/openai|anthropic/);
    expect(await page.getByTestId('referrals').textContent()).toContain('ChatGPT');
    expect(await page.getByTestId('referral-chart').locator('.recharts-legend-item-text').allTextContents()).toEqual([
      'ChatGPT',
    ]);
    await page.close();
  });

  it('[TEAM-2] confirms each save in words, and shows the logo in the header and times in the team’s zone', async () => {
    const t = await teamWithProperty('growth');
    await h.db.deliveryLogEntry.create({
      data: { propertyId: t.id, channel: 'crawl', statusCode: 202, outcome: 'accepted', createdAt: minutesAgo(3) },
    });
    const blocked: string[] = [];
    const page = await ui.signIn(t.owner);
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
    });
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByLabel('Time zone').fill('America/New_York');
    await page.getByLabel('Display name').fill('Shop Co');
    await page.getByLabel('Logo URL (https)').fill('https://cdn.example.test/logo.png');
    await page.getByRole('button', { name: 'Save team' }).click();
    await expect
      .poll(() => page.getByTestId('team-saved').textContent())
      .toBe(
        'Team settings saved. Times on the activity and setup pages now show in America/New_York. The new logo shows in the header. The header now reads Shop Co.',
      );
    const logo = page.getByTestId('team-logo');
    expect(await logo.getAttribute('src')).toBe('https://cdn.example.test/logo.png');
    expect(await logo.getAttribute('alt')).toBe('Shop Co logo');
    expect(await page.getByTestId('team-brand').textContent()).toBe('Shop Co');
    // An edit clears the last confirmation; saving again confirms again.
    await page.getByLabel('Time zone').fill('');
    expect(await page.getByTestId('team-saved').textContent()).toBe('');
    await page.getByLabel('Time zone').fill('America/New_York');
    await page.getByRole('button', { name: 'Save team' }).click();
    await expect.poll(() => page.getByTestId('team-saved').textContent()).toBe('Team settings saved.');
    await ui.shot(page, 'team-settings-saved');

    // The zone shows where times are: the crawl log names it.
    await page.goto(`${ui.base}/t/${t.teamId}/p/${t.id}/crawl`);
    await page.getByTestId('delivery-log').waitFor();
    expect(await page.getByTestId('delivery-log').locator('tbody tr').first().textContent()).toMatch(/GMT-[45]/);
    await page.getByTestId('team-logo').waitFor();
    // The logo is an https image the console's policy lets in: nothing was refused.
    expect(blocked).toEqual([]);
    await page.close();
  });
});
