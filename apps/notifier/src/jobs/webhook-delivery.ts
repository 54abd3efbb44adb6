import {
  deliverWebhook,
  SWEEP_EVERY_MS,
  sweepWebhookDeliveries,
  type WebhookDeliveryDeps,
} from '@vt/outgoing-webhooks';
import { webhookDeliveryJob, webhookDeliverySweepJob } from '@vt/queue';
import { jobWorker } from '@vt/service-runtime';
import { type NotifierJob, repeatEvery } from './notifier-job.ts';

/**
 * Alert webhooks: each webhook_deliveries row's job posts it (claim, SSRF guard, POST, log, retry
 * or give up: @vt/outgoing-webhooks), and every minute a sweep queues the due deliveries that have
 * no job (an enqueue lost after its commit, a job that ended while its delivery stayed pending)
 * and prunes old finished ones. The claim in `deliverWebhook` is the exactly-once, not BullMQ.
 */
export const webhookDelivery: NotifierJob = {
  name: 'webhook-delivery',
  async start({ config, logger, db, queue }) {
    const deps: WebhookDeliveryDeps = {
      db,
      signingKey: config.ALERT_WEBHOOK_SIGNING_KEY,
      policy: { allowPrivateTargets: config.ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS },
    };
    const deliveries = queue(webhookDeliveryJob);
    const deliver = jobWorker({
      contract: webhookDeliveryJob,
      concurrency: config.WEBHOOK_CONCURRENCY,
      handle: (data, attempt) => deliverWebhook(deps, data, attempt),
      // The id only: the URL and the notification stay out of the logs.
      jobFields: (data) => ({ deliveryId: data.deliveryId }),
      claimsProcessedJobs: false,
    });
    const sweep = jobWorker({
      contract: webhookDeliverySweepJob,
      concurrency: 1,
      handle: async () => {
        const { requeued, pruned } = await sweepWebhookDeliveries(db, deliveries);
        if (requeued > 0 || pruned > 0) logger.info({ requeued, pruned }, 'alert webhook deliveries swept');
        return { applied: true };
      },
      jobFields: () => ({}),
      claimsProcessedJobs: false,
    });
    await repeatEvery(queue(webhookDeliverySweepJob), webhookDeliverySweepJob, SWEEP_EVERY_MS);
    logger.info(
      {
        signed: config.ALERT_WEBHOOK_SIGNING_KEY !== undefined,
        privateTargets: config.ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS,
      },
      'delivering alert webhooks',
    );
    return { workers: [deliver, sweep] };
  },
};
