import { createLogger } from '@vt/logger';
import { webhookDeliveryJob } from '@vt/queue';
import { jobWorker, startQueueWorker } from '@vt/service-runtime';
import { testEnv } from '@vt/test-support';
import { deliverWebhook } from '../deliver.ts';
import type { RetrySchedule } from '../retry-schedule.ts';
import type { TargetPolicy } from '../target-guard.ts';

// The delivery job's processor in a real worker process shell (BullMQ on the real Redis, its own
// Postgres pool), as a worker app registers it; on the test's own queue prefix.

/** Retries within a test's patience: 100 ms, then doubling, at most 2 s, no jitter. */
export const FAST_RETRY_SCHEDULE: RetrySchedule = { firstDelayMs: 100, factor: 2, maxDelayMs: 2000, jitter: 0 };

export function startWebhookDeliveryWorker(options: {
  prefix: string;
  policy: TargetPolicy;
  signingKey?: string;
  schedule?: RetrySchedule;
  timeoutMs?: number;
}) {
  return startQueueWorker({
    name: 'webhook-delivery-test',
    config: {
      ...testEnv,
      QUEUE_PREFIX: options.prefix,
      HOST: '127.0.0.1',
      DATABASE_POOL_MAX: 2,
      DATABASE_CONNECT_TIMEOUT_MS: 5000,
      DATABASE_IDLE_TIMEOUT_MS: 10_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
    },
    port: 0,
    logger: createLogger({ name: 'webhook-delivery-test', level: 'silent' }),
    workers: ({ db }) => [
      jobWorker({
        contract: webhookDeliveryJob,
        concurrency: 2,
        handle: (data, attempt) =>
          deliverWebhook(
            {
              db,
              signingKey: options.signingKey ?? testEnv.ALERT_WEBHOOK_SIGNING_KEY,
              policy: options.policy,
              schedule: options.schedule ?? FAST_RETRY_SCHEDULE,
              timeoutMs: options.timeoutMs,
            },
            data,
            attempt,
          ),
        jobFields: (data) => ({ deliveryId: data.deliveryId }),
        claimsProcessedJobs: false,
      }),
    ],
  });
}
