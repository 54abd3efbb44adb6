import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConsoleConfig } from '@vt/config';
import type { Logger } from '@vt/logger';
import { wakeEmailSender } from '@vt/mail';
import { enqueueWebhookDeliveries } from '@vt/outgoing-webhooks';
import {
  answerScheduleJob,
  createQueue,
  emailJob,
  enqueue,
  type Queue,
  rejudgePropertyJob,
  webhookDeliveryJob,
} from '@vt/queue';
import { announceApiKeyRevocation } from '@vt/redis';
import { lagTolerantReader, startHttpService } from '@vt/service-runtime';
import { buildConsoleApp } from './app.ts';
import { createKnownDevices } from './auth/known-devices.ts';
import { createSignInLimiter } from './auth/sign-in-limiter.ts';
import { createCollectNow } from './collection/collect-now.ts';
import { createInvitationLimiter } from './invitations/invitation-limiter.ts';
import { caughtMailReader } from './mail/caught-mail.ts';
import { consoleOperations } from './operations/index.ts';

/** Where `pnpm --filter @vt/console build:web` puts the web UI. */
const WEB_ROOT = fileURLToPath(new URL('../web/dist/', import.meta.url));

/**
 * One re-judging job per change, under an id of its own: a job reads the terms when it runs, so a
 * change made while an earlier job runs still gets its own pass (judging is pure; a pass too many
 * changes nothing).
 */
export const requestRejudge = (queue: Queue, propertyId: string) =>
  enqueue(queue, rejudgePropertyJob, { propertyId }, `rejudge-${propertyId}-${randomUUID()}`);

/**
 * Queues recorded alert webhook deliveries. A failure (Redis away) is logged, not answered: the
 * deliveries are stored, and the notifier's sweep queues every due one that has no job.
 */
export async function queueAlertWebhookDeliveries(queue: Queue, ids: readonly string[], logger: Logger) {
  await enqueueWebhookDeliveries(queue, ids).catch((err: unknown) =>
    logger.warn({ err, deliveries: ids.length }, 'alert webhook deliveries not queued; the sweep will queue them'),
  );
}

export function startConsole(config: ConsoleConfig, logger: Logger) {
  return startHttpService({
    name: 'console',
    config,
    port: config.CONSOLE_PORT,
    logger,
    build: async ({ db, redis, registry, readinessChecks, isClosing }) => {
      const now = () => new Date();
      const rejudgeQueue = createQueue(rejudgePropertyJob, redis, config.QUEUE_PREFIX);
      const scheduleQueue = createQueue(answerScheduleJob, redis, config.QUEUE_PREFIX);
      const emailQueue = createQueue(emailJob, redis, config.QUEUE_PREFIX);
      const webhookDeliveryQueue = createQueue(webhookDeliveryJob, redis, config.QUEUE_PREFIX);
      const lagTolerant = lagTolerantReader(config, db, 'console', registry, logger);
      const operations = consoleOperations({
        db,
        lagTolerantReader: lagTolerant,
        now,
        sessionTtlMs: config.SESSION_TTL_HOURS * 3_600_000,
        requestRejudge: (propertyId) => requestRejudge(rejudgeQueue, propertyId),
        collectNow: createCollectNow({ redis, keyPrefix: config.QUEUE_PREFIX, queue: scheduleQueue, now }),
        announceKeyRevocation: () => announceApiKeyRevocation(redis, config.QUEUE_PREFIX),
        wakeEmailSender: (emailId) => wakeEmailSender(emailQueue, emailId),
        invitations: {
          limiter: createInvitationLimiter({ redis, keyPrefix: config.QUEUE_PREFIX }),
          consolePublicUrl: config.CONSOLE_PUBLIC_URL,
        },
        ...(config.MAIL_CATCHER_URL ? { caughtMail: caughtMailReader(config.MAIL_CATCHER_URL) } : {}),
        alertWebhooks: {
          signingKey: config.ALERT_WEBHOOK_SIGNING_KEY,
          policy: { allowPrivateTargets: config.ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS },
          enqueueDeliveries: (ids) => queueAlertWebhookDeliveries(webhookDeliveryQueue, ids, logger),
        },
        weeklyReport: { consoleUrl: config.CONSOLE_PUBLIC_URL, unsubscribeKey: config.REPORT_UNSUBSCRIBE_KEY },
        connection: {
          publicIngestUrl: config.PUBLIC_INGEST_URL,
          crawlTokenSecret: config.CRAWL_TOKEN_SECRET,
          webhookSigningKey: config.WEBHOOK_SIGNING_KEY,
          webhookSecretRotation: config.WEBHOOK_SECRET_ROTATION,
        },
        signInLimiter: createSignInLimiter({
          redis,
          keyPrefix: config.QUEUE_PREFIX,
          freeFailures: config.SIGN_IN_FREE_FAILURES,
          maxBackoffSeconds: config.SIGN_IN_MAX_BACKOFF_SECONDS,
          failuresPerEmail: config.SIGN_IN_FAILURES_PER_EMAIL,
          failuresPerClient: config.SIGN_IN_FAILURES_PER_CLIENT,
          windowSeconds: config.SIGN_IN_WINDOW_SECONDS,
        }),
        knownDevices: createKnownDevices({
          redis,
          keyPrefix: config.QUEUE_PREFIX,
          ttlSeconds: config.KNOWN_DEVICE_DAYS * 86_400,
        }),
      });
      return {
        close: async () => {
          await lagTolerant.close?.();
          await rejudgeQueue.close();
          await scheduleQueue.close();
          await emailQueue.close();
          await webhookDeliveryQueue.close();
        },
        app: buildConsoleApp({
          db,
          operations,
          logger,
          registry,
          readinessChecks,
          isClosing,
          now,
          publicOrigin: new URL(config.CONSOLE_PUBLIC_URL).origin,
          trustProxy: config.CONSOLE_TRUST_PROXY,
          webRoot: existsSync(join(WEB_ROOT, 'index.html')) ? WEB_ROOT : undefined,
        }),
      };
    },
  });
}
