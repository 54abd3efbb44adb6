import { startMailCatcher } from '@vt/mail-catcher';
import { testDb } from '@vt/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverEmail, type EmailDelivery } from './deliver-email.ts';
import { enqueueEmail } from './enqueue-email.ts';
import { anEmail, newTeam } from './mail-fixtures.ts';
import { createSmtpTransport } from './smtp-transport.ts';

// One attempt at a time, against a real SMTP server on loopback and the real Postgres: what the
// server receives, and what the row says afterwards.

const db = testDb();
const catcher = await startMailCatcher();
const delivery = (overrides: Partial<EmailDelivery> = {}): EmailDelivery => ({
  db,
  transport: createSmtpTransport(catcher.url, 2000),
  from: 'AI Visibility <notify@vt.example>',
  maxAttempts: 3,
  retryBaseMs: 60_000,
  retryMaxMs: 600_000,
  leaseMs: 8000,
  ...overrides,
});
afterAll(() => catcher.close());

const rowOf = (id: string) => db.outgoingEmail.findUniqueOrThrow({ where: { id } });
/** Makes a pending row due now, as the passing of its backoff would. */
const makeDue = (id: string) =>
  db.outgoingEmail.update({ where: { id }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });

describe('deliverEmail', () => {
  it('sends the email with its From, To, Subject, text and HTML, a Message-ID of its row, and records it sent', async () => {
    const email = anEmail(await newTeam(db));
    const { id } = await enqueueEmail(db, email);
    expect(await deliverEmail(delivery(), id)).toEqual({ applied: true });
    const received = await catcher.waitForMessage((m) => m.subject === email.subject);
    expect(received).toMatchObject({
      envelope: { from: 'notify@vt.example', to: [email.to] },
      from: '"AI Visibility" <notify@vt.example>',
      to: email.to,
      subject: email.subject,
      messageId: `<${id}@vt.example>`,
      text: email.text,
      html: email.html,
    });
    expect(received.headers['auto-submitted']).toBe('auto-generated');
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null, leaseUntil: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    // Sent is final: another job for it sends nothing.
    expect(await deliverEmail(delivery(), id)).toEqual({ applied: false, reason: 'not_due' });
    expect(catcher.messages().filter((m) => m.messageId === `<${id}@vt.example>`)).toHaveLength(1);
  });

  it('with the SMTP server down: the row stays pending, its attempt counted, and is sent once the server is back and the wait is over', async () => {
    const email = anEmail(await newTeam(db));
    const { id } = await enqueueEmail(db, email);
    await catcher.stop();
    try {
      const before = Date.now();
      expect(await deliverEmail(delivery(), id)).toEqual({ applied: false, reason: 'deferred' });
      const row = await rowOf(id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, leaseUntil: null });
      expect(row.lastError).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
      expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 59_000);
      // Not due yet: a job that comes early changes nothing.
      expect(await deliverEmail(delivery(), id)).toEqual({ applied: false, reason: 'not_due' });
      expect((await rowOf(id)).attempts).toBe(1);
    } finally {
      await catcher.restart();
    }
    await makeDue(id);
    expect(await deliverEmail(delivery(), id)).toEqual({ applied: true });
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(catcher.messages().filter((m) => m.subject === email.subject)).toHaveLength(1);
  });

  it('a 4xx is retried; a permanent rejection (5xx) marks the email failed with the server’s reason', async () => {
    const deferred = await enqueueEmail(db, anEmail(await newTeam(db)));
    const rejected = await enqueueEmail(db, anEmail(await newTeam(db), { to: 'nobody@example.com' }));
    catcher.refuse({ code: 451, message: 'greylisted, try later' });
    try {
      expect(await deliverEmail(delivery(), deferred.id)).toEqual({ applied: false, reason: 'deferred' });
      catcher.refuse({ code: 550, message: 'no such user here' });
      expect(await deliverEmail(delivery(), rejected.id)).toEqual({ applied: false, reason: 'failed' });
    } finally {
      catcher.refuse(null);
    }
    expect(await rowOf(deferred.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await rowOf(deferred.id)).lastError).toContain('451');
    const failed = await rowOf(rejected.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/^EENVELOPE: 550 .*no such user here/);
    // Failed is final.
    await makeDue(rejected.id);
    expect(await deliverEmail(delivery(), rejected.id)).toEqual({ applied: false, reason: 'not_due' });
  });

  it('gives up after the last attempt, failing the email with the last error', async () => {
    const { id } = await enqueueEmail(db, anEmail(await newTeam(db)));
    catcher.refuse({ code: 421, message: 'service not available' });
    try {
      for (const attempt of [1, 2]) {
        expect(await deliverEmail(delivery(), id), `attempt ${attempt}`).toEqual({
          applied: false,
          reason: 'deferred',
        });
        await makeDue(id);
      }
      expect(await deliverEmail(delivery(), id)).toEqual({ applied: false, reason: 'failed' });
    } finally {
      catcher.refuse(null);
    }
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('two senders at once send the email once: the claim lets one attempt through', async () => {
    const email = anEmail(await newTeam(db));
    const { id } = await enqueueEmail(db, email);
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => deliverEmail(delivery(), id)));
    expect(outcomes.filter((o) => o.applied)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.applied && o.reason === 'not_due')).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 200));
    expect(catcher.messages().filter((m) => m.subject === email.subject)).toHaveLength(1);
    expect((await rowOf(id)).attempts).toBe(1);
  });

  it('a row left sending by a notifier that died is sent again once its lease is over, under the same Message-ID', async () => {
    const email = anEmail(await newTeam(db));
    const { id } = await enqueueEmail(db, email);
    const future = new Date(Date.now() + 60_000);
    await db.outgoingEmail.update({ where: { id }, data: { status: 'sending', attempts: 1, leaseUntil: future } });
    expect(await deliverEmail(delivery(), id)).toEqual({ applied: false, reason: 'not_due' });
    await db.outgoingEmail.update({ where: { id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
    expect(await deliverEmail(delivery(), id)).toEqual({ applied: true });
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2 });
    const copy = await catcher.waitForMessage((m) => m.subject === email.subject);
    expect(copy.messageId).toBe(`<${id}@vt.example>`);
  });

  it('logs in with SMTP_URL’s credentials; a refused login is retried and its error never holds the password', async () => {
    const guarded = await startMailCatcher({ credentials: { user: 'mailer', pass: 's3cret-pass' } });
    try {
      const email = anEmail(await newTeam(db));
      const { id } = await enqueueEmail(db, email);
      const wrongUrl = guarded.url.replace('s3cret-pass', 'wrong-s3cret');
      const wrong = delivery({ transport: createSmtpTransport(wrongUrl, 2000), secrets: ['wrong-s3cret'] });
      expect(await deliverEmail(wrong, id)).toEqual({ applied: false, reason: 'deferred' });
      const row = await rowOf(id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.lastError).toMatch(/^EAUTH: 535/);
      expect(row.lastError).not.toContain('s3cret');
      await makeDue(id);
      const right = delivery({ transport: createSmtpTransport(guarded.url, 2000) });
      expect(await deliverEmail(right, id)).toEqual({ applied: true });
      expect((await guarded.waitForMessage((m) => m.subject === email.subject)).authenticatedAs).toBe('mailer');
    } finally {
      await guarded.close();
    }
  });

  it('an email gone (its team deleted) is nothing to do', async () => {
    const teamId = await newTeam(db);
    const { id } = await enqueueEmail(db, anEmail(teamId));
    await db.team.delete({ where: { id: teamId } });
    expect(await deliverEmail(delivery(), id)).toEqual({ applied: false, reason: 'not_due' });
  });
});
