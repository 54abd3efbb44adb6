import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { enqueueEmail } from '@vt/mail';
import { type CaughtMailServer, type MailCatcher, serveCaughtMail, startMailCatcher } from '@vt/mail-catcher';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser, TEST_SCREENSHOTS } from '../testing/browser.ts';
import { deliverNow } from '../testing/deliver-now.ts';
import { type ConsoleHarness, createConsoleHarness } from '../testing/index.ts';

// The Outgoing mail page in headless Chromium, over the real console app, Postgres and a real
// SMTP catcher, as in `pnpm start`: each email's delivery in words (a pending one with its
// attempts and last error, a failed one, a sent one), a test email sent from the page, and the
// caught copy read with its HTML sandboxed, so a script in an email runs nowhere.

vi.setConfig({ testTimeout: 120_000 });

let catcher: MailCatcher;
let catcherHttp: CaughtMailServer;
let h: ConsoleHarness;
let ui: ConsoleInBrowser;

beforeAll(async () => {
  catcher = await startMailCatcher();
  catcherHttp = await serveCaughtMail(catcher);
  h = createConsoleHarness({ mailCatcherUrl: catcherHttp.url });
  ui = await openConsoleInBrowser(h.appDeps);
}, 120_000);

afterAll(async () => {
  await ui?.close();
  await h?.emailQueue.obliterate({ force: true });
  await h?.close();
  await catcherHttp?.close();
  await catcher?.close();
});

const queue = (teamId: string, subject: string, html: string | undefined = undefined) =>
  enqueueEmail(h.db, {
    teamId,
    kind: 'alert',
    to: 'ada@example.com',
    subject,
    text: `${subject}, in plain words.`,
    ...(html ? { html } : {}),
    dedupeKey: `alert:${randomUUID()}`,
  });

describe('the Outgoing mail page', () => {
  it('shows each email’s delivery, sends a test email, and opens a caught one with its HTML sandboxed', async () => {
    const owner = await h.signUp('mail-owner');
    const member = await h.signUp('mail-member');
    const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
    const pending = await queue(teamId, 'Crawl stopped');
    await h.db.outgoingEmail.update({
      where: { id: pending.id },
      data: {
        attempts: 2,
        lastError: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:25',
        createdAt: new Date(Date.now() - 3000),
      },
    });
    const failed = await queue(teamId, 'Bounced');
    await h.db.outgoingEmail.update({
      where: { id: failed.id },
      data: {
        status: 'failed',
        attempts: 1,
        lastError: 'EENVELOPE: 550 mailbox unavailable',
        createdAt: new Date(Date.now() - 2000),
      },
    });
    const sent = await queue(
      teamId,
      'Weekly report',
      '<h1 id="report">Your week</h1><script>document.getElementById("report").textContent = "script ran"</script>',
    );
    expect(await deliverNow(h.db, catcher.url, sent.id)).toEqual({ applied: true });

    const page = await ui.signIn(owner);
    await page.getByRole('link', { name: 'Outgoing mail' }).click();
    await page.getByTestId('outgoing-mail').waitFor();
    const rows = page.getByTestId('outgoing-mail').locator('tbody tr');
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringMatching(/Alert\tada@example\.com\tWeekly report\tSent .*\tOpen/),
      expect.stringMatching(
        /Alert\tada@example\.com\tBounced\tFailed after 1 attempt\nEENVELOPE: 550 mailbox unavailable/,
      ),
      expect.stringMatching(
        /Alert\tada@example\.com\tCrawl stopped\tPending 2 attempts; next .*\nESOCKET: connect ECONNREFUSED/,
      ),
    ]);

    await page.getByRole('button', { name: 'Send a test email' }).click();
    expect(await page.getByTestId('test-email-queued').textContent()).toBe(`A test email to ${owner.email} is queued.`);
    await rows.nth(3).waitFor();
    expect((await rows.allInnerTexts())[0]).toMatch(/Test email\t.*AI Visibility: test email\tPending/);

    await page
      .getByRole('row', { name: /Weekly report/ })
      .getByRole('button', { name: 'Open' })
      .click();
    const caught = page.getByTestId('caught-email');
    await caught.waitFor();
    expect(await caught.locator('pre').textContent()).toBe('Weekly report, in plain words.');
    expect(await caught.textContent()).toContain('"AI Visibility" <notify@vt.example>');
    const iframe = caught.locator('iframe');
    expect(await iframe.getAttribute('sandbox')).toBe('');
    const heading = page.frameLocator('iframe.caught-html').locator('#report');
    expect(await heading.textContent()).toBe('Your week');
    await ui.shot(page, 'outgoing-mail');
    // The frame on its own: a full-page screenshot leaves a sandboxed frame (another process) unpainted.
    await iframe.screenshot({ path: join(TEST_SCREENSHOTS, 'outgoing-mail-caught-html.png') });
    await page.close();

    // A member has no link to it, and the page says whose it is.
    const memberPage = await ui.signIn(member);
    expect(await memberPage.getByRole('link', { name: 'Outgoing mail' }).count()).toBe(0);
    await memberPage.goto(`${ui.base}/t/${teamId}/mail`);
    await memberPage.getByText('Only owners and admins see the team’s outgoing mail.').waitFor();
    await memberPage.close();
  });
});
