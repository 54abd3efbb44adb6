import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient } from '@vt/db';
import { emailJob, enqueue, type Queue } from '@vt/queue';
import { InvalidEmailError, type OutgoingEmailInput, outgoingEmailSchema } from './email-schema.ts';

/**
 * Puts an email in the outbox, in the caller's transaction: an invitation and its email commit
 * together or not at all. A dedupe key already there inserts nothing and answers the stored
 * email's id (`created: false`), so a replayed producer sends nothing twice. Throws
 * InvalidEmailError, before writing anything, for an email outside the schema.
 *
 * After the commit, `wakeEmailSender` gets it sent at once; without it the notifier's sweep
 * finds it within MAIL_SWEEP_INTERVAL_MS.
 */
export async function enqueueEmail(
  tx: Prisma.TransactionClient | PrismaClient,
  email: OutgoingEmailInput,
): Promise<{ id: string; created: boolean }> {
  const parsed = outgoingEmailSchema.safeParse(email);
  if (!parsed.success) throw new InvalidEmailError(parsed.error);
  const { teamId, kind, to, subject, text, html, dedupeKey, listUnsubscribe } = parsed.data;
  const id = randomUUID();
  // A concurrent producer of the same key waits here on the other's uncommitted row, then
  // inserts nothing and reads the committed one below.
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO outgoing_emails (id, team_id, kind, recipient, subject, text_body, html_body, dedupe_key, list_unsubscribe)
    VALUES (${id}::uuid, ${teamId}::uuid, ${kind}, ${to}, ${subject}, ${text}, ${html ?? null}, ${dedupeKey},
            ${listUnsubscribe ?? null})
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING id`;
  if (inserted.length > 0) return { id, created: true };
  const [existing] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM outgoing_emails WHERE dedupe_key = ${dedupeKey}`;
  if (!existing) throw new Error('outgoing email neither inserted nor found under its dedupe key');
  return { id: existing.id, created: false };
}

/**
 * Asks the notifier to send an email now (after the transaction that stored it committed): its
 * job, under the email's id, so a row is queued once. A failure here loses nothing: the sweep
 * queues every due email that has no job.
 */
export async function wakeEmailSender(queue: Queue, emailId: string): Promise<void> {
  await enqueue(queue, emailJob, { emailId }, emailId);
}
