import type { LeadWorkerConfig } from '@vt/config';
import type { Logger } from '@vt/logger';
import { leadJob } from '@vt/queue';
import { jobWorker, startQueueWorker } from '@vt/service-runtime';
import { applyLead } from './jobs/lead.ts';

export function startLeadWorker(config: LeadWorkerConfig, logger: Logger) {
  return startQueueWorker({
    name: 'lead-worker',
    config,
    port: config.LEAD_WORKER_METRICS_PORT,
    logger,
    workers: ({ db }) => [
      jobWorker({
        contract: leadJob,
        concurrency: config.LEAD_WORKER_CONCURRENCY,
        handle: (data) => applyLead(db, data),
        // Ids only: the lead's contact, email and the rest of its body never reach the logs, nor
        // does the sender's x-webhook-id (free text a sender might fill with an address).
        jobFields: (data) => ({ leadId: data.leadId, propertyId: data.propertyId, matched: data.platform !== null }),
        claimsProcessedJobs: true,
      }),
    ],
  });
}
