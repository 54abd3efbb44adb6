import type { PrismaClient } from '@vt/db';
import type { Transporter } from 'nodemailer';
import type { EmailMetrics } from './email-metrics.ts';
import { claimEmail, recordFailure, recordSent } from './email-outbox.ts';
import { retryDelayMs } from './retry-schedule.ts';
import { smtpFailureOf } from './smtp-failure.ts';
import { fromDomain } from './smtp-transport.ts';

export interface EmailDelivery {
  db: PrismaClient;
  transport: Transporter;
  /** MAIL_FROM: `address` or `Name <address>`. */
  from: string;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a claim holds: longer than any attempt can take (every SMTP step is bounded). */
  leaseMs: number;
  metrics?: EmailMetrics;
  /** Never to appear in last_error (the SMTP password). */
  secrets?: readonly string[];
}

/**
 * sent: delivered now. not_due: nothing to do (sent or failed already, not yet due, held by
 * another notifier, or gone). deferred: failed, tried again later. failed: given up (a permanent
 * rejection or the last attempt). claim_lost: sent, but another notifier took the row over after
 * this one's lease ran out (it may send again: the Message-ID tells the copies apart).
 */
export type DeliveryOutcome =
  | { applied: true }
  | { applied: false; reason: 'not_due' | 'deferred' | 'failed' | 'claim_lost' };

/** The Message-ID of an email, from its row id: a copy sent again after a crash is recognisable. */
export const messageIdOf = (emailId: string, from: string) => `<${emailId}@${fromDomain(from)}>`;

/**
 * One attempt at one email: claim the row, send it over SMTP, record the result. Throws only when
 * Postgres fails (the job is then retried by BullMQ); an SMTP failure is recorded on the row and
 * the sweep queues the row again once its backoff is over.
 */
export async function deliverEmail(delivery: EmailDelivery, emailId: string): Promise<DeliveryOutcome> {
  const { db, metrics } = delivery;
  const claim = await claimEmail(db, emailId, delivery.leaseMs);
  if (!claim) return { applied: false, reason: 'not_due' };
  try {
    await delivery.transport.sendMail({
      from: delivery.from,
      to: claim.recipient,
      subject: claim.subject,
      text: claim.textBody,
      ...(claim.htmlBody === null ? {} : { html: claim.htmlBody }),
      messageId: messageIdOf(claim.id, delivery.from),
      headers: {
        // RFC 3834: sent by a program, so vacation responders stay quiet.
        'Auto-Submitted': 'auto-generated',
        // RFC 8058: the mail client's own "Unsubscribe" POSTs to the URL, no session needed.
        ...(claim.listUnsubscribe === null
          ? {}
          : {
              'List-Unsubscribe': `<${claim.listUnsubscribe}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            }),
      },
    });
  } catch (err) {
    const failure = smtpFailureOf(err, delivery.secrets);
    const giveUp = failure.permanent || claim.attempts >= delivery.maxAttempts;
    const retryIn = giveUp ? undefined : retryDelayMs(claim.attempts, delivery.retryBaseMs, delivery.retryMaxMs);
    const recorded = await recordFailure(db, claim, failure.summary, retryIn);
    if (!recorded) return { applied: false, reason: 'claim_lost' };
    (giveUp ? metrics?.failed : metrics?.retried)?.(claim.kind);
    return { applied: false, reason: giveUp ? 'failed' : 'deferred' };
  }
  if (!(await recordSent(db, claim))) return { applied: false, reason: 'claim_lost' };
  metrics?.sent(claim.kind);
  return { applied: true };
}
