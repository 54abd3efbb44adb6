import type { Logger } from '@vt/logger';
import express from 'express';
import { closeOnce } from './boot.ts';
import { healthRouter, type ReadinessCheck } from './health.ts';
import { startHttpServer } from './http-server.ts';
import type { Service } from './lifecycle.ts';
import { createMetricsRegistry } from './metrics.ts';

/** What a queue consumer must offer (a BullMQ Worker does). */
export interface QueueConsumer {
  run: () => Promise<void>;
  /** Waits for jobs in progress to finish, then stops taking new ones. */
  close: () => Promise<void>;
}

export interface WorkerServiceOptions {
  name: string;
  logger: Logger;
  host: string;
  /** Port of the small HTTP server that answers /healthz, /readyz and /metrics. */
  port: number;
  readinessChecks: ReadinessCheck[];
  consumers: QueueConsumer[];
  /** Housekeeping run on an interval (unref'd, stopped on close); a failure is logged, not fatal. */
  periodicTasks?: { name: string; everyMs: number; run: () => Promise<unknown> }[];
  /** Closes what the consumers used (Redis, Prisma), after they have drained. */
  closeResources: () => Promise<void>;
}

/** A worker process: queue consumers plus the health/metrics server; shuts down in order. */
export async function startWorkerService(options: WorkerServiceOptions): Promise<Service & { port: number }> {
  let closing = false;
  const registry = createMetricsRegistry(options.name);
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRouter({ registry, checks: options.readinessChecks, isClosing: () => closing }));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });
  const server = await startHttpServer(app, options.port, options.host);
  for (const consumer of options.consumers) {
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
      await Promise.all(options.consumers.map((c) => c.close())); // finish in-flight jobs
      await server.close();
      await options.closeResources();
    }),
  };
}
