import type { NotifierConfig } from '@vt/config';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import type { JobContract, Queue } from '@vt/queue';
import type { QueueJobWorker, QueueWorkerResources } from '@vt/service-runtime';

/** What each of the notifier's jobs is started with. */
export interface NotifierJobContext {
  config: NotifierConfig;
  logger: Logger;
  db: PrismaClient;
  /** The process's metrics registry, for a job's own metrics. */
  registry: QueueWorkerResources['registry'];
  /** The queue of a contract, made once and closed by the worker shell; adds go over the producer connection. */
  queue: (contract: JobContract) => Queue;
}

/** What a job of the notifier runs: its queues' workers, and what to close after they drained. */
export interface StartedNotifierJob {
  workers: QueueJobWorker[];
  /** Runs after every worker finished its jobs in flight (an SMTP transport, an HTTP agent). */
  close?: () => Promise<void> | void;
}

/**
 * One thing the notifier does (deliver email; later: deliver outgoing webhooks, evaluate alerts,
 * send weekly reports), in a module of its own under jobs/, listed in jobs/index.ts.
 */
export interface NotifierJob {
  name: string;
  start: (context: NotifierJobContext) => Promise<StartedNotifierJob> | StartedNotifierJob;
}

/**
 * Runs a contract's job every `everyMs` through a BullMQ job scheduler: one job per tick for the
 * whole deployment, however many notifiers run, so replicas take turns rather than each running it.
 */
export async function repeatEvery(queue: Queue, contract: JobContract, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(contract.name, { every: everyMs }, { name: contract.name, data: {} });
}
