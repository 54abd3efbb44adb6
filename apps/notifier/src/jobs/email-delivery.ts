import {
  createEmailMetrics,
  createSmtpTransport,
  deliverEmail,
  type EmailDelivery,
  parseSmtpUrl,
  redactSmtpUrl,
  sweepDueEmails,
} from '@vt/mail';
import { emailJob, emailSweepJob } from '@vt/queue';
import { jobWorker } from '@vt/service-runtime';
import { type NotifierJob, repeatEvery } from './notifier-job.ts';

/**
 * Email: each outgoing_emails row's job sends it over SMTP_URL (claim, send, record: @vt/mail),
 * and every MAIL_SWEEP_INTERVAL_MS a sweep queues the due rows that have no job, so nothing in
 * the outbox is left behind (a lost wake-up, a retry, a notifier that died mid-send).
 */
export const emailDelivery: NotifierJob = {
  name: 'email',
  async start({ config, logger, db, registry, queue }) {
    const transport = createSmtpTransport(config.SMTP_URL, config.MAIL_SEND_TIMEOUT_MS);
    const password = parseSmtpUrl(config.SMTP_URL).auth?.pass;
    const delivery: EmailDelivery = {
      db,
      transport,
      from: config.MAIL_FROM,
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      retryBaseMs: config.MAIL_RETRY_BASE_MS,
      retryMaxMs: config.MAIL_RETRY_MAX_MS,
      // Connect, greeting, each command and the data each get the timeout: a claim outlasts them.
      leaseMs: config.MAIL_SEND_TIMEOUT_MS * 4,
      metrics: createEmailMetrics(registry, db),
      secrets: password ? [password] : [],
    };
    const sendQueue = queue(emailJob);
    const send = jobWorker({
      contract: emailJob,
      concurrency: config.EMAIL_CONCURRENCY,
      handle: async ({ emailId }) => {
        const outcome = await deliverEmail(delivery, emailId);
        if (!outcome.applied && outcome.reason === 'deferred') logger.warn({ emailId }, 'email deferred: will retry');
        if (!outcome.applied && outcome.reason === 'failed') logger.error({ emailId }, 'email failed: given up');
        return outcome;
      },
      // The id only: the recipient, subject and body stay out of the logs.
      jobFields: (data) => ({ emailId: data.emailId }),
      claimsProcessedJobs: false,
    });
    const sweep = jobWorker({
      contract: emailSweepJob,
      concurrency: 1,
      handle: async () => {
        const { queued } = await sweepDueEmails(db, sendQueue);
        if (queued > 0) logger.info({ queued }, 'due emails queued again');
        return { applied: true };
      },
      jobFields: () => ({}),
      claimsProcessedJobs: false,
    });
    await repeatEvery(queue(emailSweepJob), emailSweepJob, config.MAIL_SWEEP_INTERVAL_MS);
    logger.info({ smtp: redactSmtpUrl(config.SMTP_URL), from: config.MAIL_FROM }, 'sending email');
    return { workers: [send, sweep], close: () => transport.close() };
  },
};
