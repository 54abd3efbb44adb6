import { randomBytes } from 'node:crypto';
import { type MailCatcher, startMailCatcher } from '@vt/mail-catcher';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleInBrowser, openConsoleInBrowser } from '../testing/browser.ts';
import { deliverNow } from '../testing/deliver-now.ts';
import { type ConsoleHarness, createConsoleHarness, TEST_PASSWORD } from '../testing/index.ts';

// Invitations in headless Chromium over the real console app, Postgres and a real SMTP catcher:
// an owner invites from the Team page, the email arrives, its link opens the invite page for a
// person with no account, who signs up there (the address fixed) and lands in the team with the
// role; the link then says it was used, and a revoked invitation's link says it was withdrawn.

vi.setConfig({ testTimeout: 120_000 });

let catcher: MailCatcher;
let h: ConsoleHarness;
let ui: ConsoleInBrowser;

beforeAll(async () => {
  catcher = await startMailCatcher();
  h = createConsoleHarness();
  ui = await openConsoleInBrowser(h.appDeps);
}, 120_000);

afterAll(async () => {
  await ui?.close();
  await h?.emailQueue.obliterate({ force: true });
  await h?.close();
  await catcher?.close();
});

/** Sends the invitation email to `to` through the catcher and answers its link's path and fragment. */
async function invitationPathMailedTo(to: string) {
  const email = await h.db.outgoingEmail.findFirstOrThrow({ where: { recipient: to, kind: 'invitation' } });
  expect(await deliverNow(h.db, catcher.url, email.id)).toEqual({ applied: true });
  const message = await catcher.waitForMessage((m) => m.to === to);
  const link = /https:\/\/console\.example\.test(\/invite#vti_[A-Za-z0-9_-]{43})/.exec(message.text);
  expect(link, message.text).not.toBeNull();
  return link?.[1] as string;
}

describe('invitations in the web UI', () => {
  it('invite from the Team page → the email → sign up from the link → in the team with the role', async () => {
    const owner = await h.signUp('invite-owner');
    const { teamId } = await h.teamOf(owner);
    const newcomer = `newcomer-${randomBytes(4).toString('hex')}@example.test`;
    const withdrawn = `withdrawn-${randomBytes(4).toString('hex')}@example.test`;

    const page = await ui.signIn(owner);
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    const form = page.getByRole('form', { name: 'Invite by email' });
    for (const [email, role] of [
      [newcomer, 'admin'],
      [withdrawn, 'member'],
    ] as const) {
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Role').selectOption(role);
      await form.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByTestId(`invitation-${email}`).waitFor();
    }
    expect(await page.getByTestId('invitation-sent').textContent()).toBe(`Invitation sent to ${withdrawn}.`);
    expect(await page.getByTestId(`invitation-${newcomer}`).textContent()).toContain('admin');
    await page.getByTestId(`invitation-${withdrawn}`).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByTestId(`invitation-${withdrawn}`).waitFor({ state: 'detached' });

    const invitePath = await invitationPathMailedTo(newcomer);
    const visitor = await ui.browser.newPage();
    await visitor.goto(`${ui.base}${invitePath}`);
    await visitor.getByTestId('invite-summary').waitFor();
    expect(await visitor.getByTestId('invite-summary').textContent()).toContain('as an admin');
    const signUp = visitor.getByRole('form', { name: 'Sign up and join' });
    expect(await signUp.getByLabel('Email').inputValue()).toBe(newcomer);
    expect(await signUp.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await signUp.getByLabel('Name').fill('Newcomer');
    await signUp.getByLabel('Password').fill(TEST_PASSWORD);
    await signUp.getByRole('button', { name: 'Create account and join' }).click();
    await visitor.waitForURL(`${ui.base}/t/${teamId}`);
    const joined = await h.db.membership.findFirst({ where: { teamId, user: { email: newcomer } } });
    expect(joined?.role).toBe('admin');

    // The same link again: a page saying it was used, not an error.
    await visitor.goto(`${ui.base}${invitePath}`);
    await visitor.getByTestId('invite-accepted').waitFor();
    await visitor.close();

    const revokedPath = await invitationPathMailedTo(withdrawn);
    const stranger = await ui.browser.newPage();
    await stranger.goto(`${ui.base}${revokedPath}`);
    await stranger.getByRole('heading', { name: 'This invitation was withdrawn' }).waitFor();
    await stranger.close();
    const bogus = await ui.browser.newPage();
    await bogus.goto(`${ui.base}/invite#vti_${'x'.repeat(43)}`);
    await bogus.getByRole('heading', { name: 'This invitation link is not valid' }).waitFor();
    await bogus.close();

    await page.reload();
    await page.getByTestId(`member-${newcomer}`).waitFor();
    // Accepted and revoked: nothing is left waiting.
    await page.getByText('No invitation is waiting for an answer.').waitFor();
    await page.close();
  });
});
