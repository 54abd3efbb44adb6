import type { PrismaClient } from '@vt/db';
import { createSmtpTransport, deliverEmail } from '@vt/mail';

/** The From the console tests' emails are sent with: the caught copies' Message-IDs end in @vt.example. */
export const TEST_MAIL_FROM = 'AI Visibility <notify@vt.example>';

/**
 * One attempt at a stored email now, to an SMTP server (a mail catcher), as the notifier would
 * make it: for console tests that need a sent email without running a notifier.
 */
export function deliverNow(db: PrismaClient, smtpUrl: string, emailId: string) {
  return deliverEmail(
    {
      db,
      transport: createSmtpTransport(smtpUrl, 2000),
      from: TEST_MAIL_FROM,
      maxAttempts: 1,
      retryBaseMs: 1000,
      retryMaxMs: 1000,
      leaseMs: 8000,
    },
    emailId,
  );
}
