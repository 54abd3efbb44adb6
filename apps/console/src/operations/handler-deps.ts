import type { PrismaClient, SqlReader } from '@vt/db';
import type { AlertWebhookSettings } from '@vt/outgoing-webhooks';
import type { ConnectionSettings } from '@vt/properties';
import type { ReportLinks } from '@vt/weekly-report';
import type { KnownDevices } from '../auth/known-devices.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import type { CollectNow } from '../collection/collect-now.ts';
import type { InvitationLimiter } from '../invitations/invitation-limiter.ts';
import type { CaughtMailReader } from '../mail/caught-mail.ts';

/** What the console's handlers work with. */
export interface HandlerDeps {
  db: PrismaClient;
  /**
   * For the views of collected answers, which tolerate seconds of lag: the read replica when
   * READ_DATABASE_URL names one (falling back to the primary), else the primary. Everything else,
   * and each view's own access check, reads `db`, the primary.
   */
  lagTolerantReader?: SqlReader;
  connection: ConnectionSettings;
  signInLimiter: SignInLimiter;
  /** Browsers that signed in to an account before: the account's sign-in ceiling lets them through. */
  knownDevices: KnownDevices;
  sessionTtlMs: number;
  now: () => Date;
  /** Queues a re-judging of the property's stored answers (its brand terms or competitors changed). */
  requestRejudge: (propertyId: string) => Promise<void>;
  /** Tells every read API replica that a key was revoked, before its next request (issue 33). */
  announceKeyRevocation: () => Promise<void>;
  /** Starts a property's answer collection now, once per property per hour. */
  collectNow: CollectNow;
  /** Asks the notifier to send a stored email now (its job, under the email's id). */
  wakeEmailSender: (emailId: string) => Promise<void>;
  /** Invitations: their hourly send limits, and the console's public URL their links open. */
  invitations: { limiter: InvitationLimiter; consolePublicUrl: string };
  /** The development mail catcher (MAIL_CATCHER_URL); absent in production. */
  caughtMail?: CaughtMailReader;
  /** Alert webhooks: the deployment's signing key and SSRF policy, and how recorded deliveries are queued. */
  alertWebhooks: AlertWebhookSettings & {
    /** Never throws: a delivery not queued now is queued by the notifier's sweep. */
    enqueueDeliveries: (deliveryIds: readonly string[]) => Promise<void>;
  };
  /** The weekly report's links: the console's public URL and the unsubscribe links' key (REPORT_UNSUBSCRIBE_KEY). */
  weeklyReport: ReportLinks;
}
