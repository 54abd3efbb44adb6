import { z } from 'zod';
import '../errors.ts';
import { cursorPageFields } from '../list-cursor.ts';

// What the console says of a team's outgoing email: each email's delivery (pending ones with
// their attempts and last error), and in development the copy the mail catcher received.

const timestamp = z.iso.datetime({ offset: true });

/** Test emails a team may queue per hour: each goes to a real inbox. */
export const TEST_EMAIL_LIMIT = { perTeam: 5, windowSeconds: 3600 } as const;

export const teamEmailSchema = z
  .object({
    id: z.uuid(),
    kind: z
      .string()
      .openapi({ description: 'What it is: invitation, alert, weekly-report or test.', example: 'invitation' }),
    recipient: z.string(),
    subject: z.string(),
    status: z.enum(['pending', 'sending', 'sent', 'failed']).openapi({
      description:
        'pending: waiting for its first or next attempt (the SMTP server may be down); sending: an attempt is under way; sent: the SMTP server accepted it; failed: given up (a permanent rejection, or the last attempt).',
    }),
    attempts: z.number().int().openapi({ description: 'Attempts made so far.' }),
    lastError: z
      .string()
      .nullable()
      .openapi({ description: 'Why the last attempt failed, as the SMTP server or the connection said.' }),
    nextAttemptAt: timestamp.nullable().openapi({ description: 'While pending: when the next attempt is due.' }),
    createdAt: timestamp,
    sentAt: timestamp.nullable(),
  })
  .openapi('TeamEmail');

export const teamEmailsSchema = z
  .object({
    emails: z.array(teamEmailSchema).openapi({ description: 'The team’s emails, newest first: one page of them.' }),
    ...cursorPageFields,
    caughtMail: z.boolean().openapi({
      description:
        'Whether this deployment runs the development mail catcher (pnpm start), whose copy of a sent email getCaughtEmail answers.',
    }),
  })
  .openapi('TeamEmails');

export const queuedTestEmailSchema = z
  .object({ email: teamEmailSchema })
  .openapi('QueuedTestEmail', { description: 'The test email, queued to the caller’s own address.' });

export const caughtEmailSchema = z
  .object({
    receivedAt: timestamp,
    from: z.string(),
    to: z.string(),
    subject: z.string(),
    messageId: z.string().nullable(),
    text: z.string().openapi({ description: 'The plain-text part, as received.' }),
    html: z.string().nullable().openapi({
      description: 'The HTML part, as received: show it sandboxed (no scripts), never in the page itself.',
    }),
  })
  .openapi('CaughtEmail');
