import { randomUUID } from 'node:crypto';
import { TEST_EMAIL_LIMIT } from '@vt/contracts/console';
import { enqueueEmail } from '@vt/mail';
import { type CaughtMailServer, type MailCatcher, serveCaughtMail, startMailCatcher } from '@vt/mail-catcher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverNow } from '../../testing/deliver-now.ts';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// The team's outgoing mail in the console: owners and admins see each email's delivery and send
// themselves a test email; members see none of it. In development (a mail catcher given) the
// caught copy of a sent email is shown; in production that view does not exist.

const h = createConsoleHarness();
let catcher: MailCatcher;
let catcherHttp: CaughtMailServer;
let dev: ReturnType<typeof createConsoleHarness>;

beforeAll(async () => {
  catcher = await startMailCatcher();
  catcherHttp = await serveCaughtMail(catcher);
  dev = createConsoleHarness({ mailCatcherUrl: catcherHttp.url });
});
afterAll(async () => {
  await h.emailQueue.obliterate({ force: true });
  await h.close();
  await dev.emailQueue.obliterate({ force: true });
  await dev.close();
  await catcherHttp.close();
  await catcher.close();
});

async function team(harness = h) {
  const owner = await harness.signUp('owner');
  const admin = await harness.signUp('admin');
  const member = await harness.signUp('member');
  const { teamId } = await harness.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  return { teamId, owner, admin, member, as: (person: SignedUp) => harness.as(person.token, teamId) };
}

const alert = (teamId: string, subject = 'Visibility fell') =>
  enqueueEmail(h.db, {
    teamId,
    kind: 'alert',
    to: 'ada@example.com',
    subject,
    text: 'It fell.',
    html: '<p>It <b>fell</b>.<script>alert(1)</script></p>',
    dedupeKey: `alert:${randomUUID()}`,
  });

describe('the outgoing mail list', () => {
  it('shows owners and admins the team’s emails, newest first, each with its delivery and never its body', async () => {
    const t = await team();
    const other = await team();
    const first = await alert(t.teamId, 'First');
    const second = await alert(t.teamId, 'Second');
    await alert(other.teamId, 'Not ours');
    await h.db.outgoingEmail.update({
      where: { id: first.id },
      data: {
        attempts: 3,
        lastError: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:25',
        createdAt: new Date(Date.now() - 60_000),
      },
    });
    for (const person of [t.owner, t.admin]) {
      const res = await t.as(person).get('/api/team/emails');
      expect(res.status).toBe(200);
      expect(res.body.caughtMail).toBe(false);
      expect(res.body.emails.map((e: { subject: string }) => e.subject)).toEqual(['Second', 'First']);
      expect(res.body.emails[1]).toEqual({
        id: first.id,
        kind: 'alert',
        recipient: 'ada@example.com',
        subject: 'First',
        status: 'pending',
        attempts: 3,
        lastError: 'ESOCKET: connect ECONNREFUSED 127.0.0.1:25',
        nextAttemptAt: expect.any(String),
        createdAt: expect.any(String),
        sentAt: null,
      });
      expect(res.text).not.toContain('It fell');
    }
    expect(second.created).toBe(true);
  });

  it('is refused to members (403 FORBIDDEN): it names every recipient', async () => {
    const t = await team();
    await alert(t.teamId);
    const res = await t.as(t.member).get('/api/team/emails');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const test = await t.as(t.member).post('/api/team/emails/test');
    expect(test.status).toBe(403);
    expect(await h.db.outgoingEmail.count({ where: { teamId: t.teamId, kind: 'test' } })).toBe(0);
  });
});

describe('a test email', () => {
  it('is queued to the caller and the notifier woken under the email’s id', async () => {
    const t = await team();
    const res = await t.as(t.admin).post('/api/team/emails/test');
    expect(res.status).toBe(201);
    expect(res.body.email).toMatchObject({ kind: 'test', recipient: t.admin.email, status: 'pending', attempts: 0 });
    const row = await h.db.outgoingEmail.findUniqueOrThrow({ where: { id: res.body.email.id } });
    expect(row.teamId).toBe(t.teamId);
    expect(row.textBody).toContain('test email');
    const job = await h.emailQueue.getJob(row.id);
    expect(job?.data).toEqual({ emailId: row.id });
  });

  it(`is limited to ${TEST_EMAIL_LIMIT.perTeam} per team per hour: the next answers 429 with Retry-After and queues nothing`, async () => {
    const t = await team();
    const at = new Date('2026-11-26T10:00:00Z');
    h.setNow(at);
    try {
      for (let n = 0; n < TEST_EMAIL_LIMIT.perTeam; n++) {
        await h.db.outgoingEmail.create({
          data: {
            teamId: t.teamId,
            kind: 'test',
            recipient: t.owner.email,
            subject: 'test',
            textBody: 'test',
            dedupeKey: `test:${randomUUID()}`,
            createdAt: new Date(at.getTime() - (10 - n) * 60_000),
          },
        });
      }
      const refused = await t.as(t.owner).post('/api/team/emails/test');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      // The oldest of the hour was 10 minutes ago: the next may go in 50 minutes.
      expect(Number(refused.headers['retry-after'])).toBe(50 * 60);
      expect(await h.db.outgoingEmail.count({ where: { teamId: t.teamId } })).toBe(TEST_EMAIL_LIMIT.perTeam);
      h.setNow(new Date(at.getTime() + 51 * 60_000));
      expect((await t.as(t.owner).post('/api/team/emails/test')).status).toBe(201);
    } finally {
      h.setNow(new Date());
    }
  });
});

describe('the caught copy (development)', () => {
  it('does not exist without a mail catcher: 404, and the list says so', async () => {
    const t = await team();
    const { id } = await alert(t.teamId);
    const res = await t.as(t.owner).get(`/api/team/emails/${id}/caught`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('answers the message as the catcher received it, for the team’s own emails only', async () => {
    const t = await team(dev);
    const other = await team(dev);
    const { id } = await alert(t.teamId, 'Caught one');
    const notSent = await alert(t.teamId, 'Not sent yet');
    const theirs = await alert(other.teamId, 'Theirs');
    expect(await deliverNow(h.db, catcher.url, id)).toEqual({ applied: true });
    expect(await deliverNow(h.db, catcher.url, theirs.id)).toEqual({ applied: true });

    const list = await t.as(t.owner).get('/api/team/emails');
    expect(list.body.caughtMail).toBe(true);
    const res = await t.as(t.admin).get(`/api/team/emails/${id}/caught`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      receivedAt: expect.any(String),
      from: '"AI Visibility" <notify@vt.example>',
      to: 'ada@example.com',
      subject: 'Caught one',
      messageId: `<${id}@vt.example>`,
      text: 'It fell.',
      html: '<p>It <b>fell</b>.<script>alert(1)</script></p>',
    });
    for (const missing of [notSent.id, theirs.id, randomUUID(), 'not-a-uuid']) {
      const refused = await t.as(t.owner).get(`/api/team/emails/${missing}/caught`);
      expect(refused.status, missing).toBe(404);
    }
    expect((await t.as(t.member).get(`/api/team/emails/${id}/caught`)).status).toBe(403);
  });

  it('says so when the catcher does not answer (pnpm start stopped): 503 NOT_CONFIGURED, no stack', async () => {
    const gone = await serveCaughtMail(catcher);
    await gone.close();
    const stale = createConsoleHarness({ mailCatcherUrl: gone.url });
    try {
      const t = await team(stale);
      const { id } = await alert(t.teamId);
      const res = await t.as(t.owner).get(`/api/team/emails/${id}/caught`);
      expect(res.status).toBe(503);
      expect(res.body.error).toEqual({
        code: 'NOT_CONFIGURED',
        message: 'The mail catcher does not answer: is `pnpm start` still running?',
      });
    } finally {
      await stale.close();
    }
  });
});
