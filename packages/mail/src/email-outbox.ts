import type { PrismaClient } from '@vt/db';

// The outbox's state changes, one statement each. The row is the truth: a claim (status
// 'sending' with a lease) is taken before sending and checked when the result is recorded, so
// two notifiers never send one row at once, and a notifier that lost its claim (it outlived the
// lease) records nothing over the one that took it.

export interface ClaimedEmail {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  /** The one-click unsubscribe URL, when the email offers one. */
  listUnsubscribe: string | null;
  /** This attempt's number, from 1: the claim's fencing token. */
  attempts: number;
}

/**
 * Claims the email for one attempt: a pending row that is due, or a row left 'sending' past its
 * lease (its notifier died mid-send). Undefined when there is nothing to do: sent, failed, not yet
 * due, held by another notifier, or gone.
 */
export async function claimEmail(db: PrismaClient, id: string, leaseMs: number): Promise<ClaimedEmail | undefined> {
  const [row] = await db.$queryRaw<ClaimedEmail[]>`
    UPDATE outgoing_emails
    SET status = 'sending', attempts = attempts + 1,
        lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE id = ${id}::uuid
      AND ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND lease_until < now()))
    RETURNING id, kind, recipient, subject, text_body AS "textBody", html_body AS "htmlBody",
              list_unsubscribe AS "listUnsubscribe", attempts`;
  return row;
}

/** The attempt succeeded. False when the claim was lost meanwhile (nothing is recorded then). */
export async function recordSent(db: PrismaClient, claim: ClaimedEmail): Promise<boolean> {
  const changed = await db.$executeRaw`
    UPDATE outgoing_emails
    SET status = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL
    WHERE id = ${claim.id}::uuid AND status = 'sending' AND attempts = ${claim.attempts}`;
  return changed === 1;
}

/** The attempt failed: try again after `retryInMs`, or (undefined) give up and mark it failed. */
export async function recordFailure(
  db: PrismaClient,
  claim: ClaimedEmail,
  lastError: string,
  retryInMs: number | undefined,
): Promise<boolean> {
  const changed =
    retryInMs === undefined
      ? await db.$executeRaw`
          UPDATE outgoing_emails
          SET status = 'failed', lease_until = NULL, last_error = ${lastError}
          WHERE id = ${claim.id}::uuid AND status = 'sending' AND attempts = ${claim.attempts}`
      : await db.$executeRaw`
          UPDATE outgoing_emails
          SET status = 'pending', lease_until = NULL, last_error = ${lastError},
              next_attempt_at = now() + make_interval(secs => ${retryInMs / 1000})
          WHERE id = ${claim.id}::uuid AND status = 'sending' AND attempts = ${claim.attempts}`;
  return changed === 1;
}

/**
 * Emails due and undelivered, oldest first: pending ones whose next attempt has come, and ones
 * left 'sending' past their lease. Reads only undelivered rows (a partial index).
 */
export async function dueEmailIds(db: PrismaClient, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM outgoing_emails
    WHERE status IN ('pending', 'sending') AND next_attempt_at <= now()
      AND (status = 'pending' OR lease_until < now())
    ORDER BY next_attempt_at
    LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

/** Emails not delivered yet (pending or being sent), for the pending gauge. */
export async function undeliveredCount(db: PrismaClient): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM outgoing_emails WHERE status IN ('pending', 'sending')`;
  return row?.n ?? 0;
}
