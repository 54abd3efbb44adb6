import type { LeadWorkerConfig } from '@vt/config';
import type { Logger } from '@vt/logger';
import { leadJob } from '@vt/queue';
import { startQueueWorker } from '@vt/service-runtime';
import { applyLead } from './jobs/lead.ts';

export function startLeadWorker(config: LeadWorkerConfig, logger: Logger) {
  return startQueueWorker({
    name: 'lead-worker',
    config,
    port: config.LEAD_WORKER_METRICS_PORT,
    concurrency: config.LEAD_WORKER_CONCURRENCY,
    logger,
    contract: leadJob,
    handle: (data, { db }) => applyLead(db, data),
    // Ids only: the lead's contact, email and the rest of its body never reach the logs, nor does
    // the sender's x-webhook-id (free text a sender might fill with an address).
    jobFields: (data) => ({ leadId: data.leadId, propertyId: data.propertyId, matched: data.platform !== null }),
  });
}
