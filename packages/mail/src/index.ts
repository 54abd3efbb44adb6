// The service's outgoing email: the outbox producers write to in their own transaction, and its
// delivery over SMTP (claim, send, record, retry, sweep) that the notifier runs.
export { type DeliveryOutcome, deliverEmail, type EmailDelivery, messageIdOf } from './deliver-email.ts';
export { createEmailMetrics, type EmailMetrics } from './email-metrics.ts';
export { type ClaimedEmail, claimEmail, dueEmailIds, undeliveredCount } from './email-outbox.ts';
export {
  EMAIL_KINDS,
  EMAIL_LIMITS,
  type EmailKind,
  InvalidEmailError,
  type OutgoingEmail,
  type OutgoingEmailInput,
  outgoingEmailSchema,
} from './email-schema.ts';
export { sweepDueEmails } from './email-sweep.ts';
export { enqueueEmail, wakeEmailSender } from './enqueue-email.ts';
export { retryDelayMs } from './retry-schedule.ts';
export { type SmtpFailure, smtpFailureOf } from './smtp-failure.ts';
export { createSmtpTransport, fromDomain, parseSmtpUrl, redactSmtpUrl, type SmtpServer } from './smtp-transport.ts';
export { findTeamEmail, listTeamEmails, type TeamEmail, testEmailsSince } from './team-emails.ts';
export { escapeHtml, testEmail } from './test-email.ts';
