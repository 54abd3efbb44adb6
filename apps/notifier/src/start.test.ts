import { notifierConfigSchema, parseConfig } from '@vt/config';
import { createConsoleHarness } from '@vt/console/testing';
import { createLogger } from '@vt/logger';
import { enqueueEmail, type OutgoingEmailInput, wakeEmailSender } from '@vt/mail';
import { startMailCatcher } from '@vt/mail-catcher';
import { isolatedQueuePrefix, sampleSum, scrape, scratchDatabase, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from './start.ts';
import { waitUntil } from './testing/wait-until.ts';

// The notifier in process, end to end: the console queues, the notifier sends through a real SMTP
// server on loopback (the mail catcher), the console shows what happened. A notifier sweeps every
// due email of its database, so this file has a database of its own; its queues are on a prefix
// of its own too. Retries wait 200 ms and the sweep runs every 100 ms (30 s and 15 s by default).

const scratch = await scratchDatabase('notifier');
const db = scratch.db;
const prefix = isolatedQueuePrefix();
const catcher = await startMailCatcher();
const consoleApp = createConsoleHarness({ db, prefix });
let notifier: Awaited<ReturnType<typeof startNotifier>>;
let team: { teamId: string; as: ReturnType<typeof consoleApp.as>; ownerEmail: string };

beforeAll(async () => {
  const config = parseConfig('notifier', notifierConfigSchema, {
    ...testEnv,
    DATABASE_URL: scratch.url,
    QUEUE_PREFIX: prefix,
    HOST: '127.0.0.1',
    NOTIFIER_PORT: '0',
    SMTP_URL: catcher.url,
    MAIL_FROM: 'AI Visibility <notify@vt.example>',
    MAIL_RETRY_BASE_MS: '200',
    MAIL_RETRY_MAX_MS: '400',
    MAIL_SWEEP_INTERVAL_MS: '100',
    MAIL_SEND_TIMEOUT_MS: '2000',
    MAIL_MAX_ATTEMPTS: '50',
  });
  notifier = await startNotifier(config, createLogger({ name: 'notifier', level: 'silent' }));
  const owner = await consoleApp.signUp('owner');
  const { teamId } = await consoleApp.teamOf(owner);
  team = { teamId, as: consoleApp.as(owner.token, teamId), ownerEmail: owner.email };
});

afterAll(async () => {
  await notifier?.close();
  await consoleApp.emailQueue.obliterate({ force: true });
  await consoleApp.close();
  await catcher.close();
  await scratch.drop();
});

const email = (subject: string, overrides: Partial<OutgoingEmailInput> = {}): OutgoingEmailInput => ({
  teamId: team.teamId,
  kind: 'alert',
  to: 'ada@example.com',
  subject,
  text: `${subject}: the text`,
  html: `<p>${subject}: the <b>HTML</b></p>`,
  dedupeKey: `alert:${subject}`,
  ...overrides,
});

/** What the console lists of the email. */
async function listed(id: string) {
  const res = await team.as.get('/api/team/emails');
  expect(res.status).toBe(200);
  return (res.body.emails as { id: string; status: string; attempts: number; lastError: string | null }[]).find(
    (e) => e.id === id,
  );
}
const received = (subject: string) => catcher.messages().filter((m) => m.subject === subject);
const metrics = () => scrape(`http://127.0.0.1:${notifier.port}/metrics`);

describe('the notifier', () => {
  it('sends an email queued and woken: the SMTP server gets its From, To, Subject, text and HTML once', async () => {
    const { id } = await enqueueEmail(db, email('Crawl stopped'));
    await wakeEmailSender(consoleApp.emailQueue, id);
    const message = await catcher.waitForMessage((m) => m.subject === 'Crawl stopped');
    expect(message).toMatchObject({
      from: '"AI Visibility" <notify@vt.example>',
      to: 'ada@example.com',
      text: 'Crawl stopped: the text',
      html: '<p>Crawl stopped: the <b>HTML</b></p>',
      messageId: `<${id}@vt.example>`,
    });
    await waitUntil('listed as sent', async () => (await listed(id))?.status === 'sent');
    expect(await listed(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(sampleSum(await metrics(), 'vt_emails_sent_total', { kind: 'alert' })).toBeGreaterThanOrEqual(1);
  });

  it('a replayed producer queues nothing more: one email arrives', async () => {
    const first = await enqueueEmail(db, email('Weekly report'));
    const again = await enqueueEmail(db, email('Weekly report'));
    expect(again).toEqual({ id: first.id, created: false });
    await Promise.all([first.id, again.id].map((id) => wakeEmailSender(consoleApp.emailQueue, id)));
    await catcher.waitForMessage((m) => m.subject === 'Weekly report');
    await new Promise((r) => setTimeout(r, 500));
    expect(received('Weekly report')).toHaveLength(1);
  });

  it('the sweep sends an email whose producer never woke the sender (its enqueue lost after the commit)', async () => {
    const { id } = await enqueueEmail(db, email('Never woken'));
    const message = await catcher.waitForMessage((m) => m.subject === 'Never woken');
    expect(message.messageId).toBe(`<${id}@vt.example>`);
    await waitUntil('sent', async () => (await listed(id))?.status === 'sent');
  });

  it('with the SMTP server down, the email stays pending with its attempts counted, as the console shows; back up, it arrives once', async () => {
    await catcher.stop();
    let id = '';
    try {
      const queued = await team.as.post('/api/team/emails/test');
      expect(queued.status).toBe(201);
      id = queued.body.email.id;
      expect(queued.body.email).toMatchObject({ kind: 'test', recipient: team.ownerEmail, status: 'pending' });
      const pending = await waitUntil('two attempts', async () => {
        const row = await listed(id);
        return row && row.attempts >= 2 && row.status === 'pending' ? row : undefined;
      });
      expect(pending.lastError).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
      expect(sampleSum(await metrics(), 'vt_emails_retried_total', { kind: 'test' })).toBeGreaterThanOrEqual(2);
      expect(sampleSum(await metrics(), 'vt_emails_pending')).toBeGreaterThanOrEqual(1);
    } finally {
      await catcher.restart();
    }
    const message = await catcher.waitForMessage((m) => m.messageId === `<${id}@vt.example>`);
    expect(message.to).toBe(team.ownerEmail);
    expect(message.subject).toBe('AI Visibility: test email');
    await waitUntil('sent', async () => (await listed(id))?.status === 'sent');
    await new Promise((r) => setTimeout(r, 500));
    expect(catcher.messages().filter((m) => m.messageId === `<${id}@vt.example>`)).toHaveLength(1);
    expect((await listed(id))?.lastError).toBeNull();
  });

  it('a permanent rejection marks the email failed with the server’s reason, and it is not tried again', async () => {
    catcher.refuse({ code: 550, message: 'mailbox unavailable' });
    let id = '';
    try {
      ({ id } = await enqueueEmail(db, email('Rejected', { to: 'gone@example.com' })));
      await wakeEmailSender(consoleApp.emailQueue, id);
      await waitUntil('failed', async () => (await listed(id))?.status === 'failed');
    } finally {
      catcher.refuse(null);
    }
    await new Promise((r) => setTimeout(r, 500));
    const row = await listed(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.lastError).toContain('550');
    expect(row?.lastError).toContain('mailbox unavailable');
    expect(received('Rejected')).toHaveLength(0);
    expect(sampleSum(await metrics(), 'vt_emails_failed_total', { kind: 'alert' })).toBe(1);
  });
});
