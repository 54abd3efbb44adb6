import { testDb } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { InvalidEmailError } from './email-schema.ts';
import { enqueueEmail } from './enqueue-email.ts';
import { anEmail, newTeam } from './mail-fixtures.ts';

const db = testDb();

describe('enqueueEmail', () => {
  it('stores the email as pending, in the caller’s transaction', async () => {
    const teamId = await newTeam(db);
    const email = anEmail(teamId);
    const { id, created } = await enqueueEmail(db, email);
    expect(created).toBe(true);
    const row = await db.outgoingEmail.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      teamId,
      kind: 'alert',
      recipient: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html,
      dedupeKey: email.dedupeKey,
      status: 'pending',
      attempts: 0,
      lastError: null,
      sentAt: null,
      leaseUntil: null,
    });
  });

  it('a replayed producer (same dedupe key) inserts nothing and gets the stored email’s id', async () => {
    const teamId = await newTeam(db);
    const email = anEmail(teamId);
    const first = await enqueueEmail(db, email);
    const again = await enqueueEmail(db, { ...email, subject: 'A different subject' });
    expect(again).toEqual({ id: first.id, created: false });
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => enqueueEmail(db, anEmail(teamId, { dedupeKey: `race:${teamId}` }))),
    );
    expect(new Set(concurrent.map((c) => c.id)).size).toBe(1);
    expect(concurrent.filter((c) => c.created)).toHaveLength(1);
    const rows = await db.outgoingEmail.findMany({ where: { teamId } });
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.id === first.id)?.subject).toBe(email.subject);
  });

  it('commits with its producer or not at all', async () => {
    const teamId = await newTeam(db);
    const email = anEmail(teamId);
    const rolledBack = new Error('the invitation failed');
    await expect(
      db.$transaction(async (tx) => {
        await enqueueEmail(tx, email);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await db.outgoingEmail.count({ where: { teamId } })).toBe(0);
  });

  it('refuses a bad address (and any bad field) with a message naming it, storing nothing', async () => {
    const teamId = await newTeam(db);
    const refused = enqueueEmail(db, anEmail(teamId, { to: 'ada at example' }));
    await expect(refused).rejects.toBeInstanceOf(InvalidEmailError);
    await expect(refused).rejects.toThrow('The email was not queued: to: must be a valid email address');
    const nul = await enqueueEmail(db, anEmail(teamId, { text: 'a\u0000b', subject: 'x'.repeat(301) })).catch(
      (err: InvalidEmailError) => err.problems.map((p) => p.path),
    );
    expect(nul).toEqual(['subject', 'text']);
    expect(await db.outgoingEmail.count({ where: { teamId } })).toBe(0);
  });
});
