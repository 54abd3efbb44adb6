import type { LeadWorkerConfig } from '@vt/config';
import { createPrismaClient, pruneProcessedJobs } from '@vt/db';
import type { Logger } from '@vt/logger';
import { closeRedisConnection, createJobWorker, createWorkerConnection, leadJob } from '@vt/queue';
import { pingPostgres, pingRedis, type Service, startWorkerService } from '@vt/service-runtime';
import { processLead } from './jobs/store-lead.ts';

const MS_PER_HOUR = 3_600_000;

export async function startLeadWorker(config: LeadWorkerConfig, logger: Logger): Promise<Service & { port: number }> {
  const db = createPrismaClient(config, 'lead-worker');
  const redis = createWorkerConnection({
    redisUrl: config.REDIS_URL,
    onError: (err) => logger.error({ err }, 'redis connection error'),
  });
  const leads = createJobWorker({
    contract: leadJob,
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.LEAD_WORKER_CONCURRENCY,
    handle: async (data, job) => {
      const outcome = await processLead(data, { db });
      // Ids only: the lead's contact, email and the rest of its body never reach the logs, nor does
      // the sender's x-webhook-id (free text a sender might fill with an address).
      const fields = {
        jobId: job.id,
        leadId: data.leadId,
        propertyId: data.propertyId,
        matched: data.platform !== null,
      };
      if (outcome.applied) logger.debug(fields, 'lead stored');
      else logger.info({ ...fields, reason: outcome.reason }, 'lead skipped');
    },
    onUnknownJob: (job) => logger.warn({ jobId: job.id, jobName: job.name }, 'unknown job on the lead queue'),
  });
  // The error is logged, never job.data: BullMQ retries with backoff, then keeps the job as failed.
  leads.on('failed', (job, err) =>
    logger.error({ err, jobId: job?.id, attempt: job?.attemptsMade, leadId: leadIdOf(job?.data) }, 'lead job failed'),
  );
  leads.on('error', (err) => logger.error({ err }, 'lead worker error'));
  return startWorkerService({
    name: 'lead-worker',
    logger,
    host: config.HOST,
    port: config.LEAD_WORKER_METRICS_PORT,
    readinessChecks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(redis) },
    ],
    consumers: [leads],
    // Exactly-once markers outlive every retry, then go; every replica may run this, harmlessly.
    periodicTasks: [
      { name: 'prune processed-job markers', everyMs: MS_PER_HOUR, run: () => pruneProcessedJobs(db, leadJob.queue) },
    ],
    closeResources: async () => {
      await closeRedisConnection(redis);
      await db.$disconnect();
    },
  });
}

/** The lead id of a job whose payload may not have parsed (an id only, never the lead). */
function leadIdOf(data: unknown): string | undefined {
  const leadId = (data as { leadId?: unknown } | undefined)?.leadId;
  return typeof leadId === 'string' ? leadId : undefined;
}
