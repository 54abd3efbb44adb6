import type { Logger } from '@vt/logger';
import express from 'express';
import { closeOnce } from './boot.ts';
import { healthRouter, type ReadinessCheck } from './health.ts';
import { startHttpServer } from './http-server.ts';
import type { Service } from './lifecycle.ts';
import { createMetricsRegistry } from './metrics.ts';

/** A job as a consumer reports its failure; its payload may not have parsed. */
export interface FailedJob {
  id?: string;
  attemptsMade: number;
  data: unknown;
}

/** What a queue consumer must offer (a BullMQ Worker does). */
export interface QueueConsumer {
  run: () => Promise<void>;
  /** Waits for jobs in progress to finish, then stops taking new ones. */
  close: () => Promise<void>;
  on(event: 'failed', listener: (job: FailedJob | undefined, err: Error) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** A consumer and how its failures are logged. */
export interface WorkerConsumer {
  consumer: QueueConsumer;
  /** Names it in the logs: `${label} job failed`, `${label} worker error`. */
  label: string;
  /**
   * What a failed job's log line says about its data: ids and counts only, never the payload
   * itself. The data may not have parsed, so this must accept anything.
   */
  jobFields: (data: unknown) => Record<string, unknown>;
}

export interface WorkerServiceOptions {
  name: string;
  logger: Logger;
  host: string;
  /** Port of the small HTTP server that answers /healthz, /readyz and /metrics. */
  port: number;
  readinessChecks: ReadinessCheck[];
  consumers: WorkerConsumer[];
  /** Housekeeping run on an interval (unref'd, stopped on close); a failure is logged, not fatal. */
  periodicTasks?: { name: string; everyMs: number; run: () => Promise<unknown> }[];
  /** Closes what the consumers used (Redis, Prisma), after they have drained. */
  closeResources: () => Promise<void>;
}

/** A worker process: queue consumers plus the health/metrics server; shuts down in order. */
export async function startWorkerService(options: WorkerServiceOptions): Promise<Service & { port: number }> {
  let closing = false;
  // Listening first: an 'error' event with no listener would throw.
  for (const { consumer, label, jobFields } of options.consumers) {
    // The error is logged, never job.data: BullMQ retries with backoff, then keeps the job as failed.
    consumer.on('failed', (job, err) =>
      options.logger.error(
        { err, jobId: job?.id, attempt: job?.attemptsMade, ...jobFields(job?.data) },
        `${label} job failed`,
      ),
    );
    consumer.on('error', (err) => options.logger.error({ err }, `${label} worker error`));
  }
  const registry = createMetricsRegistry(options.name);
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRouter({ registry, checks: options.readinessChecks, isClosing: () => closing }));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });
  const server = await startHttpServer(app, options.port, options.host);
  for (const { consumer } of options.consumers) {
    consumer.run().catch((err: unknown) => options.logger.error({ err }, 'queue consumer stopped'));
  }
  const timers = (options.periodicTasks ?? []).map((task) => {
    const timer = setInterval(() => {
      task.run().catch((err: unknown) => options.logger.error({ err, task: task.name }, 'periodic task failed'));
    }, task.everyMs);
    timer.unref();
    return timer;
  });
  options.logger.info({ port: server.port, consumers: options.consumers.length }, `${options.name} started`);
  return {
    port: server.port,
    close: closeOnce(async () => {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(options.consumers.map(({ consumer }) => consumer.close())); // finish in-flight jobs
      await server.close();
      await options.closeResources();
    }),
  };
}
