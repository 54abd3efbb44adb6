import type { LeadWorkerConfig } from '@vt/config';
import { createPrismaClient, processedJobsPruneTask } from '@vt/db';
import type { Logger } from '@vt/logger';
import { createJobWorker, leadJob } from '@vt/queue';
import { closeRedisConnection, createWorkerConnection } from '@vt/redis';
import { pingPostgres, pingRedis, type Service, startWorkerService } from '@vt/service-runtime';
import { applyLead } from './jobs/store-lead.ts';

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
      const outcome = await applyLead(db, data);
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
  return startWorkerService({
    name: 'lead-worker',
    logger,
    host: config.HOST,
    port: config.LEAD_WORKER_METRICS_PORT,
    readinessChecks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(redis) },
    ],
    // A failed job's log line names its lead id only, never the lead.
    consumers: [{ consumer: leads, label: 'lead', jobFields: (data) => ({ leadId: leadIdOf(data) }) }],
    periodicTasks: [processedJobsPruneTask(db, leadJob.queue)],
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
