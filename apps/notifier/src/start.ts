import type { NotifierConfig } from '@vt/config';
import type { Logger } from '@vt/logger';
import { closeOnce, startQueueWorker } from '@vt/service-runtime';
import { NOTIFIER_JOBS, type NotifierJob, type StartedNotifierJob } from './jobs/index.ts';

/**
 * The notifier: the process that speaks first. Each of its jobs (jobs/index.ts) brings its
 * queues' workers and repeatable jobs; on the shared worker shell (startQueueWorker): health,
 * readiness and metrics on NOTIFIER_PORT, ordered shutdown (readiness 503, sends in flight
 * finish, then each job's own resources, queues, Redis, Postgres). Readiness is Postgres and
 * Redis only: an SMTP server that is down makes emails wait, not the notifier unready.
 */
export async function startNotifier(
  config: NotifierConfig,
  logger: Logger,
  options: { jobs?: readonly NotifierJob[] } = {},
) {
  const started: StartedNotifierJob[] = [];
  const service = await startQueueWorker({
    name: 'notifier',
    config,
    port: config.NOTIFIER_PORT,
    logger,
    enqueues: true,
    workers: async ({ db, registry, queue }) => {
      for (const job of options.jobs ?? NOTIFIER_JOBS) {
        started.push(await job.start({ config, logger, db, registry, queue }));
      }
      return started.flatMap((job) => job.workers);
    },
  });
  return {
    port: service.port,
    queue: service.queue,
    close: closeOnce(async () => {
      await service.close();
      for (const job of started) await job.close?.();
    }),
  };
}
