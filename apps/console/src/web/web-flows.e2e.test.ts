import { createHmac, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { addMember } from '@vt/accounts';
import { importAnswers } from '@vt/answers';
import { deriveCrawlToken } from '@vt/credentials';
import { isolatedQueuePrefix, type RunningApp, startApp, testEnv } from '@vt/test-support';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// What a person does in the web UI, end to end: traffic posted to the real ingest gateway and
// carried by the real crawl and lead workers (separate processes, over BullMQ) shows up in the
// activity views and the delivery logs; a Cloudflare Logpush job set up from its tab, on a phone,
// delivers to the gateway; members and roles with the API's rules as disabled
// controls; brand terms, competitors and prompts; the answers views over judged answers.

// A walk through many pages in Chromium, with three more test files running beside it on two
// cores: on a slow machine one took over 30 s (the suite's default), so these tests get 120 s.
vi.setConfig({ testTimeout: 120_000 });

const h = createConsoleHarness();
const queuePrefix = isolatedQueuePrefix();
let ui: ConsoleInBrowser;
let gateway: RunningApp;
let crawlWorker: RunningApp;
let leadWorker: RunningApp;
let gatewayUrl = '';

beforeAll(async () => {
  const env = { QUEUE_PREFIX: queuePrefix };
  [ui, gateway, crawlWorker, leadWorker] = await Promise.all([
    openConsoleInBrowser(h.appDeps),
    startApp('apps/ingest-gateway/src/main.ts', 'INGEST_GATEWAY_PORT', env, 60_000),
    startApp('apps/crawl-worker/src/main.ts', 'CRAWL_WORKER_METRICS_PORT', env, 60_000),
    startApp('apps/lead-worker/src/main.ts', 'LEAD_WORKER_METRICS_PORT', env, 60_000),
  ]);
  gatewayUrl = gateway.url;
}, 120_000);

afterAll(async () => {
  for (const p of [gateway, crawlWorker, leadWorker]) p?.child.kill('SIGTERM');
  await Promise.all([gateway?.exited, crawlWorker?.exited, leadWorker?.exited]);
  await ui?.close();
  await h.close();
});

/** The path of a URL the UI shows with the public ingest host, on the local gateway. */
const onGateway = (shown: string) => `${gatewayUrl}${new URL(shown).pathname}`;

/** Reloads until `check` passes: the workers write a moment after the gateway answers. */
async function eventually(page: Page, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the view never showed what was sent');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await page.reload();
  }
}

describe('the console web UI, end to end', () => {
  it('shows a crawl batch and a signed lead sent to the gateway in the activity views and both delivery logs', async () => {
    const owner = await h.signUp('flow-owner');
    await h.teamOf(owner);
    const page = await ui.signIn(owner);
    await page.getByLabel('Name', { exact: true }).fill('Flow Shop');
    await page.getByLabel('Domain').fill('flow-shop.example');
    await page.getByLabel('Plan').selectOption('growth');
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByRole('link', { name: 'Flow Shop' }).click();

    // A new property's activity says how to connect it instead of drawing an empty chart.
    await page.getByTestId('crawl-empty').waitFor();
    await ui.shot(page, 'activity-empty');
    await page.getByTestId('crawl-empty').getByRole('link', { name: 'crawl setup' }).click();
    const token = (await page.getByTestId('crawl-token').textContent()) ?? '';
    const endpoint = (await page.getByTestId('endpoint-url').textContent()) ?? '';

    // Three GPTBot fetches, an Applebot fetch (dual-use: kept, not counted as AI), one person sent
    // by ChatGPT, two ordinary visits that are dropped.
    const line = (path: string, userAgent: string, referer?: string) =>
      JSON.stringify({
        timestamp: new Date().toISOString(),
        host: 'flow-shop.example',
        path,
        userAgent,
        statusCode: 200,
        ip: '203.0.113.9',
        ...(referer ? { referer } : {}),
      });
    const gptbot =
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)';
    const browserUa =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    const batch = [
      line('/pricing', gptbot),
      line('/pricing', gptbot),
      line('/docs', gptbot),
      line(
        '/docs',
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
      ),
      line('/pricing', browserUa, 'https://chatgpt.com/'),
      line('/', browserUa),
      line('/about', browserUa, 'https://www.google.com/'),
    ].join('\n');
    const crawl = await fetch(onGateway(endpoint), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
      },
      body: gzipSync(batch),
    });
    expect(crawl.status).toBe(202);

    await page.getByRole('link', { name: 'Lead webhook' }).click();
    const secret = (await page.getByTestId('signing-secret').textContent()) ?? '';
    const hookUrl = (await page.getByTestId('webhook-url').textContent()) ?? '';
    const body = JSON.stringify({
      contact: 'grace@flow.example',
      email: 'grace@flow.example',
      referrer: 'https://chatgpt.com/',
    });
    const id = randomUUID();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('hex');
    const lead = await fetch(onGateway(hookUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-id': id,
        'x-webhook-timestamp': timestamp,
        'x-webhook-signature': signature,
      },
      body,
    });
    expect(lead.status).toBeLessThan(300);

    // The webhook's delivery log shows the stored lead with its body.
    await eventually(page, async () => (await page.getByTestId('webhook-log').count()) > 0);
    expect(await page.getByTestId('webhook-log').textContent()).toContain('grace@flow.example');

    await page.getByRole('link', { name: 'Activity' }).click();
    await eventually(
      page,
      async () =>
        (await page.getByTestId('total-hits').textContent()) === '3' &&
        (await page.getByTestId('total-leads').textContent()) === '1',
    );
    expect(await page.getByTestId('total-visits').textContent()).toBe('1');
    expect(await page.getByTestId('crawlers').textContent()).toContain('GPTBot');
    expect(await page.getByTestId('categories').textContent()).toContain('Dual-use crawler (not counted as AI)1');
    expect(await page.getByTestId('dual-use-note').textContent()).toContain('1 hits from dual-use crawlers');
    expect(await page.getByTestId('top-pages').textContent()).toContain('/pricing');
    expect(await page.getByTestId('referrals').textContent()).toContain('ChatGPT');
    const leads = (await page.getByTestId('recent-leads').textContent()) ?? '';
    expect(leads).toContain('grace@flow.example');
    expect(leads).toContain('ChatGPT');
    expect(await page.getByTestId('crawler-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await ui.shot(page, 'activity');

    // The crawl delivery log: the batch accepted, 7 lines read, 5 kept (4 crawler hits, 1 AI referral).
    await page.getByRole('link', { name: 'Crawl setup' }).click();
    await page.getByTestId('delivery-log').waitFor();
    const row = (await page.getByTestId('delivery-log').locator('tbody tr').first().textContent()) ?? '';
    expect(row).toContain('202');
    expect(row).toMatch(/7\s*5/);
    expect(await page.getByTestId('crawl-status').textContent()).toBe('connected');
    await page.close();
  });

  it('sets up Cloudflare Logpush from its tab, on a phone and by keyboard: the destination URL as shown delivers to the gateway', async () => {
    const owner = await h.signUp('logpush-owner');
    const { teamId } = await h.teamOf(owner);
    const api = h.as(owner.token, teamId);
    const created = await api.post('/api/properties', {
      name: 'Edge Shop',
      domain: 'edge-shop.example',
      plan: 'growth',
    });
    const propertyId = created.body.property.id as string;
    const token = deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, propertyId, 1);

    const page = await ui.signIn(owner, { width: 390, height: 844 });
    await page.goto(`${ui.base}/t/${teamId}/p/${propertyId}/crawl`);
    const server = page.getByRole('tab', { name: 'Your server' });
    await server.waitFor();
    expect(await server.getAttribute('aria-selected')).toBe('true');
    // Only the selected tab is in the Tab order; the arrow keys move between tabs and select.
    expect(await page.getByRole('tab', { name: 'Cloudflare' }).getAttribute('tabindex')).toBe('-1');
    await server.focus();
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('tab', { name: 'AWS CloudFront', selected: true }).waitFor();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('tab', { name: 'Cloudflare', selected: true }).waitFor();
    expect(await page.locator(':focus').textContent()).toBe('Cloudflare');
    const panel = page.getByRole('tabpanel', { name: 'Cloudflare' });
    expect(await panel.getByRole('heading', { name: 'Cloudflare Logpush' }).count()).toBe(1);
    expect(await panel.locator('ol.steps li').count()).toBeGreaterThan(3);
    expect(await panel.getByRole('button', { name: 'Copy Cloudflare HTTP endpoint URL' }).count()).toBe(1);
    expect(page.url()).toContain('via=cloudflare');

    const shown = (await page.getByTestId('cloudflare-destination').textContent()) ?? '';
    expect(shown).toBe(
      `https://ingest.example.test/api/ingest/crawl/${propertyId}/cloudflare?header_Authorization=Bearer%20${token}`,
    );
    // Nothing is wider than the phone: the long URL wraps inside its block.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await ui.shot(page, 'crawl-setup-cloudflare-phone');

    // Logpush sends each header_* parameter of the destination URL as a request header.
    const destination = new URL(onGateway(shown) + new URL(shown).search);
    const authorization = destination.searchParams.get('header_Authorization') ?? '';
    destination.searchParams.delete('header_Authorization');
    const record = (userAgent: string) =>
      JSON.stringify({
        EdgeStartTimestamp: new Date().toISOString(),
        ClientRequestHost: 'edge-shop.example',
        ClientRequestURI: '/pricing',
        ClientRequestUserAgent: userAgent,
        EdgeResponseStatus: 200,
        ClientRequestMethod: 'GET',
        ClientIP: '203.0.113.9',
        RayID: randomUUID().slice(0, 16),
      });
    const delivery = await fetch(destination, {
      method: 'POST',
      headers: { authorization },
      body: gzipSync(
        [
          record(
            'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
          ),
          record('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'),
        ].join('\n'),
      ),
    });
    expect(delivery.status).toBe(200);
    expect(await delivery.json()).toEqual({ kept: 1, received: 2 });

    // The gateway writes its delivery-log row a moment after it answers; then the tab (kept in the
    // URL across the reload) shows the connection Connected, and the log names Logpush.
    await expect
      .poll(async () => (await api.get(`/api/properties/${propertyId}/crawl`)).body.status, { timeout: 20_000 })
      .toBe('connected');
    await page.reload();
    await page.getByTestId('delivery-log').waitFor();
    expect(await page.getByTestId('cloudflare-status').textContent()).toBe('connected');
    expect(await page.getByTestId('delivery-log').locator('tbody tr').first().textContent()).toContain(
      'accepted from Cloudflare Logpush: kept 1 of 2 lines',
    );
    await page.close();
  });

  it('switches teams from the header, and creates a second team from it', async () => {
    const owner = await h.signUp('switcher');
    const first = await h.teamOf(owner);
    const second = await h.teamOf(owner);
    const page = await ui.signIn(owner);
    await page.goto(`${ui.base}/t/${first.teamId}`);
    await page.getByRole('combobox', { name: 'Team' }).selectOption(second.teamId);
    // The page goes to the chosen team and stays there (it used to fall back to the old one).
    await page.waitForURL(`${ui.base}/t/${second.teamId}`);
    await page.waitForTimeout(500);
    expect(page.url()).toBe(`${ui.base}/t/${second.teamId}`);
    expect(await page.getByRole('combobox', { name: 'Team' }).inputValue()).toBe(second.teamId);
    const session = await h.db.session.findFirst({ where: { userId: owner.user.id }, orderBy: { createdAt: 'desc' } });
    expect(session?.teamId).toBe(second.teamId);

    await page.getByRole('link', { name: 'New team' }).click();
    await page.waitForURL(`${ui.base}/teams/new`);
    await page.close();
  });

  it('[TEAM-4] shows the role rules as disabled controls with their reasons, and changes roles and members', async () => {
    const owner = await h.signUp('roles-owner');
    const admin = await h.signUp('roles-admin');
    const alice = await h.signUp('roles-alice');
    const bob = await h.signUp('roles-bob');
    const { teamId } = await h.teamOf(owner, [
      { person: admin, role: 'admin' },
      { person: alice, role: 'member' },
      { person: bob, role: 'member' },
    ]);
    const roleOf = async (person: SignedUp) =>
      (await h.db.membership.findFirst({ where: { teamId, userId: person.user.id } }))?.role ?? null;
    const rowOf = (page: Page, person: SignedUp) => page.getByTestId(`member-${person.email}`);

    const asAdmin = await ui.signIn(admin);
    await asAdmin.getByRole('link', { name: 'Team', exact: true }).click();
    await asAdmin.getByTestId('members').waitFor();
    // An admin cannot touch the owner: both controls are disabled and say why.
    const ownerRow = rowOf(asAdmin, owner);
    expect(await ownerRow.getByRole('combobox').isDisabled()).toBe(true);
    expect(await ownerRow.getByRole('button', { name: 'Remove' }).isDisabled()).toBe(true);
    expect(await ownerRow.textContent()).toContain('Only an owner can grant or remove the owner role.');
    // ...and may not grant the owner role to anyone.
    expect(await rowOf(asAdmin, alice).locator('option[value="owner"]').isDisabled()).toBe(true);
    expect(
      await asAdmin.getByRole('form', { name: 'Invite by email' }).locator('option[value="owner"]').isDisabled(),
    ).toBe(true);
    await rowOf(asAdmin, alice).getByRole('combobox').selectOption('admin');
    await expect.poll(() => roleOf(alice)).toBe('admin');
    await ui.shot(asAdmin, 'team-as-admin');
    await asAdmin.close();

    const asOwner = await ui.signIn(owner);
    await asOwner.goto(`${ui.base}/t/${teamId}/settings`);
    await asOwner.getByTestId('members').waitFor();
    // The only owner can neither step down nor leave.
    expect(await rowOf(asOwner, owner).getByRole('button', { name: 'Leave team' }).isDisabled()).toBe(true);
    expect(await rowOf(asOwner, owner).textContent()).toContain('A team keeps at least one owner');
    await rowOf(asOwner, bob).getByRole('button', { name: 'Remove' }).click();
    await asOwner
      .getByRole('dialog', { name: `Remove ${bob.user.name}?` })
      .getByRole('button', { name: 'Remove member' })
      .click();
    await expect.poll(() => roleOf(bob)).toBeNull();
    await rowOf(asOwner, bob).waitFor({ state: 'detached' });

    // Settings: the name and the number of days the views open with.
    await asOwner.getByLabel('Name', { exact: true }).fill('Renamed Team');
    await asOwner.getByLabel('Views open with').selectOption('7');
    await asOwner.getByRole('button', { name: 'Save team' }).click();
    await expect
      .poll(async () => (await h.db.team.findUniqueOrThrow({ where: { id: teamId } })).name)
      .toBe('Renamed Team');
    expect((await h.db.team.findUniqueOrThrow({ where: { id: teamId } })).settings).toMatchObject({
      defaultDayRange: 7,
    });
    await ui.shot(asOwner, 'team-as-owner');
    await asOwner.close();

    // A member sees the team and its people, and no control that changes anything.
    const member = await h.signUp('roles-member');
    await addMember(h.db, {
      teamId,
      actor: { userId: owner.user.id, role: 'owner' },
      email: member.email,
      role: 'member',
    });
    const asMember = await ui.signIn(member);
    await asMember.goto(`${ui.base}/t/${teamId}/settings`);
    await asMember.getByTestId('members').waitFor();
    expect(await asMember.getByTestId('members').getByRole('combobox').count()).toBe(0);
    expect(await asMember.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await asMember.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await asMember.getByRole('button', { name: 'Save team' }).count()).toBe(0);
    expect(await asMember.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await asMember.close();
  });

  it('edits brand terms, competitors and prompts, and shows a member them without controls and no key', async () => {
    const owner = await h.signUp('brand-owner');
    const member = await h.signUp('brand-member');
    const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
    const id = (
      await h
        .as(owner.token, teamId)
        .post('/api/properties', { name: 'Brandy', domain: 'brandy.example', plan: 'growth' })
    ).body.property.id as string;
    const key = await h.as(owner.token, teamId).post('/api/keys', { name: 'Secret key' });
    expect(key.status).toBe(201);
    const property = () =>
      h.db.property.findUniqueOrThrow({ where: { id }, include: { competitors: true, prompts: true } });

    const page = await ui.signIn(owner);
    await page.goto(`${ui.base}/t/${teamId}/p/${id}/settings`);
    await page.getByLabel(/Brand terms/).fill('Brandy\nBrandy Co');
    await page.getByLabel(/Count dual-use crawlers/).check();
    await page.getByRole('button', { name: 'Save brand' }).click();
    await expect.poll(async () => (await property()).brandTerms).toEqual(['Brandy', 'Brandy Co']);
    expect((await property()).countDualUseAsAi).toBe(true);

    const competitorForm = page.getByRole('form', { name: 'Add a competitor' });
    await competitorForm.getByLabel('Competitor').fill('Rival');
    await competitorForm.getByLabel('Domain (optional)').fill('rival.example');
    await competitorForm.getByRole('button', { name: 'Add competitor' }).click();
    await page.getByTestId('competitors').getByText('Rival', { exact: true }).waitFor();

    const promptForm = page.getByRole('form', { name: 'Add a prompt' });
    await promptForm.getByLabel('Prompt').fill('Which brandy is best?');
    await promptForm.getByRole('button', { name: 'Add prompt' }).click();
    await page.getByTestId('prompts').getByText('Which brandy is best?').waitFor();
    await page.getByTestId('prompts').getByRole('button', { name: 'Pause' }).click();
    // Exactly the badge: a substring match also finds the row's buttons, whose text runs together
    // as "PauseDelete", before the pause has reached the database.
    await page.getByTestId('prompts').getByText('paused', { exact: true }).waitFor();
    const saved = await property();
    expect(saved.competitors.map((c) => [c.name, c.domain])).toEqual([['Rival', 'rival.example']]);
    expect(saved.prompts.map((p) => [p.text, p.active])).toEqual([['Which brandy is best?', false]]);
    await ui.shot(page, 'brand-and-prompts');
    await page.close();

    // A member: the same lists, no form, and no key anywhere (only its prefix on the keys page).
    const asMember = await ui.signIn(member);
    await asMember.goto(`${ui.base}/t/${teamId}/p/${id}/settings`);
    await asMember.getByTestId('brand-terms').waitFor();
    expect(await asMember.getByTestId('brand-terms').textContent()).toBe('Brandy, Brandy Co');
    expect(await asMember.locator('form').count()).toBe(0);
    expect(await asMember.getByRole('button', { name: /Pause|Resume|Delete|Remove/ }).count()).toBe(0);
    await asMember.goto(`${ui.base}/t/${teamId}/keys`);
    await asMember.getByTestId('keys').waitFor();
    expect(await asMember.content()).not.toContain(key.body.secret);
    expect(await asMember.getByRole('button', { name: /Create key|Revoke/ }).count()).toBe(0);
    await asMember.close();
  });

  it("shows the answers: visibility over time, share of voice, each verdict with the brand highlighted, in the URL's range and filters", async () => {
    const owner = await h.signUp('answers-owner');
    const { teamId } = await h.teamOf(owner);
    const created = await h.as(owner.token, teamId).post('/api/properties', {
      name: 'Zephyr',
      domain: 'zephyr.example',
      plan: 'growth',
    });
    const id = created.body.property.id as string;
    await h.as(owner.token, teamId).post(`/api/properties/${id}/competitors`, { name: 'Mistral Fans' });
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const answer = (back: number, model: string, text: string) =>
      JSON.stringify({
        propertyId: id,
        prompt: 'best desk fan',
        model,
        date: day(back),
        answer: text,
        citations: ['https://www.fans.example/top'],
      });
    const imported = await importAnswers(h.db, [
      answer(2, 'chatgpt', 'Zephyr is a great quiet fan. Mistral Fans are louder.'),
      answer(2, 'claude', 'Mistral Fans make solid fans.'),
      answer(1, 'chatgpt', 'Try Zephyr.'),
      answer(1, 'claude', 'Mistral Fans or Zephyr both work.'),
    ]);
    expect(imported.rejected).toEqual([]);

    const page = await ui.signIn(owner);
    await page.goto(`${ui.base}/t/${teamId}/p/${id}/answers`);
    await page.getByTestId('responses').waitFor();
    // 3 of 4 answers name Zephyr; Zephyr and Mistral Fans are each named 3 times.
    expect(await page.getByTestId('visibility-rate').textContent()).toBe('75%');
    const share = (await page.getByTestId('share').textContent()) ?? '';
    expect(share).toContain('Zephyr (you)');
    expect(share).toContain('Mistral Fans');
    expect(share).toContain('50%');
    expect(await page.getByTestId('responses').locator('li').count()).toBe(4);
    expect(await page.getByTestId('responses').locator('mark').first().textContent()).toBe('Zephyr');
    expect(await page.getByTestId('responses').textContent()).toContain('fans.example');
    expect(await page.getByTestId('visibility-chart').locator('.recharts-line').count()).toBe(2);
    await ui.shot(page, 'answers');

    // Filters and the range live in the URL: a reload shows the same answers.
    await page.getByRole('combobox', { name: 'Platform' }).selectOption('claude');
    await page.getByRole('combobox', { name: 'Mention' }).selectOption('false');
    await page.waitForURL(/model=claude/);
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/from=\d{4}-\d{2}-\d{2}&to=/);
    await page.reload();
    await page.getByTestId('responses').waitFor();
    expect(await page.getByTestId('responses').locator('li').count()).toBe(1);
    expect(await page.getByTestId('responses').textContent()).toContain('Mistral Fans make solid fans.');
    expect(await page.getByRole('combobox', { name: 'Platform' }).inputValue()).toBe('claude');
    await page.close();
  });
});
