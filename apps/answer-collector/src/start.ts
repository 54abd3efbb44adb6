import type { AnswerCollectorConfig } from '@vt/config';
import { createPrismaClient, formatUtcDay, utcDay } from '@vt/db';
import type { Logger } from '@vt/logger';
import {
  answerScheduleJob,
  collectAnswerJob,
  createJobWorker,
  createQueue,
  type JobContract,
  type Queue,
  rejudgePropertyJob,
  UnrecoverableError,
} from '@vt/queue';
import { closeRedisConnection, createProducerConnection, createWorkerConnection } from '@vt/redis';
import {
  closeOnce,
  createJobMetrics,
  createMetricsRegistry,
  pingPostgres,
  pingRedis,
  startHealthServer,
  watchQueueDepth,
} from '@vt/service-runtime';
import { Counter, Gauge } from 'prom-client';
import type { z } from 'zod';
import { collectAnswer } from './jobs/collect-answer.ts';
import { rejudgeProperty } from './jobs/rejudge-property.ts';
import { questionJobId, questionsOfDay } from './jobs/schedule-day.ts';
import { type PlatformClient, PlatformError, platformClients } from './platforms/index.ts';

/** `06:00` → the cron pattern of that minute each day (the scheduler runs it in UTC). */
const dailyPattern = (hhmm: string) => {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return `${minutes} ${hours} * * *`;
};

export interface AnswerCollectorOptions {
  /** Platform clients instead of those the config's keys make (tests point them at local servers). */
  clients?: PlatformClient[];
  now?: () => Date;
}

/**
 * The answer collector, whole: once a UTC day (COLLECT_AT_UTC) a job scheduler enqueues every
 * question of the day, one job per (active prompt, platform) on that platform's own queue; each
 * platform's worker asks, judges and stores with its own concurrency, so one platform's outage or
 * rate limit never holds up another; a third queue re-judges a property whose terms changed.
 * Health, readiness and metrics on ANSWER_COLLECTOR_METRICS_PORT; ordered shutdown.
 */
export async function startAnswerCollector(
  config: AnswerCollectorConfig,
  logger: Logger,
  options: AnswerCollectorOptions = {},
) {
  const name = 'answer-collector';
  const now = options.now ?? (() => new Date());
  const db = createPrismaClient(config, name);
  const onError = (err: unknown) => logger.error({ err }, 'redis connection error');
  const redis = createWorkerConnection({ redisUrl: config.REDIS_URL, onError });
  const producer = createProducerConnection({ redisUrl: config.REDIS_URL, onError });
  const registry = createMetricsRegistry(name);
  const jobMetrics = createJobMetrics(registry);
  const answered = new Counter({
    name: 'vt_answers_collected_total',
    help: 'Questions handled by platform and outcome (collected, or the reason it was skipped or failed).',
    labelNames: ['platform', 'outcome'],
    registers: [registry],
  });
  const enabled = new Gauge({
    name: 'vt_answer_platform_enabled',
    help: '1 for a platform this deployment collects from, 0 for one it skips (no key, or no public API).',
    labelNames: ['platform'],
    registers: [registry],
  });

  const found = options.clients ? { clients: options.clients, skipped: [] } : platformClients(config);
  for (const client of found.clients) enabled.set({ platform: client.platform }, 1);
  for (const { platform, reason } of found.skipped) {
    enabled.set({ platform }, 0);
    logger.warn({ platform, reason }, 'platform skipped: its answers are not collected');
  }

  const queues = new Map<string, Queue>();
  const queueFor = (contract: JobContract) => {
    let queue = queues.get(contract.queue);
    if (!queue) {
      queue = createQueue(contract, producer, config.QUEUE_PREFIX);
      queues.set(contract.queue, queue);
    }
    return queue;
  };
  const workers: ReturnType<typeof createJobWorker>[] = [];
  const work = <S extends z.ZodType>(
    contract: JobContract<S>,
    concurrency: number,
    handle: (data: z.output<S>) => Promise<void>,
  ) => {
    const worker = createJobWorker({
      contract,
      connection: redis,
      prefix: config.QUEUE_PREFIX,
      concurrency,
      handle: (data) => handle(data),
      onUnknownJob: (job) =>
        logger.warn({ jobId: job.id, jobName: job.name }, `unknown job on the ${contract.queue} queue`),
    });
    worker.on('failed', (job, err) =>
      logger.error({ err, jobId: job?.id, attempt: job?.attemptsMade }, `${contract.name} job failed`),
    );
    worker.on('error', (err) => logger.error({ err }, `${contract.name} worker error`));
    jobMetrics.observe(worker, contract.queue);
    // Each queue this process works, also made here for its depth (the producer connection: a
    // scrape while Redis is away fails fast).
    queueFor(contract);
    workers.push(worker);
  };

  // The day's questions.
  work(answerScheduleJob, 1, async ({ day }) => {
    const of = day ?? formatUtcDay(utcDay(now()));
    const questions = await questionsOfDay(
      db,
      found.clients.map((c) => c.platform),
      of,
    );
    for (const question of questions) {
      const contract = collectAnswerJob(question.platform);
      await queueFor(contract).add(contract.name, contract.schema.parse(question), { jobId: questionJobId(question) });
    }
    logger.info({ day: of, questions: questions.length }, 'questions of the day enqueued');
  });

  // One queue and worker per platform.
  for (const client of found.clients) {
    work(collectAnswerJob(client.platform), config.COLLECT_CONCURRENCY_PER_PLATFORM, async (data) => {
      try {
        const outcome = await collectAnswer(db, client, data, now);
        answered.inc({ platform: client.platform, outcome: outcome.applied ? 'collected' : outcome.reason });
        if (!outcome.applied) jobMetrics.skipped(collectAnswerJob(client.platform).queue, outcome.reason);
      } catch (err) {
        answered.inc({
          platform: client.platform,
          outcome: err instanceof PlatformError && err.retryable ? 'retrying' : 'failed',
        });
        // A refusal that would only repeat (a bad key, a bad request) is not retried.
        if (err instanceof PlatformError && !err.retryable) throw new UnrecoverableError(err.message);
        throw err;
      }
    });
  }

  work(rejudgePropertyJob, 1, async ({ propertyId }) => {
    const outcome = await rejudgeProperty(db, propertyId);
    if (!outcome.applied) jobMetrics.skipped(rejudgePropertyJob.queue, outcome.reason);
    logger.info({ propertyId, ...(outcome.applied ? {} : { skipped: outcome.reason }) }, 'property re-judged');
  });

  await queueFor(answerScheduleJob).upsertJobScheduler(
    'daily-collection',
    { pattern: dailyPattern(config.COLLECT_AT_UTC), tz: 'UTC' },
    { name: answerScheduleJob.name, data: {} },
  );

  watchQueueDepth(registry, [...queues.values()]);

  let closing = false;
  const server = await startHealthServer({
    registry,
    checks: [
      { name: 'postgres', check: pingPostgres(db) },
      { name: 'redis', check: pingRedis(producer) },
    ],
    isClosing: () => closing,
    port: config.ANSWER_COLLECTOR_METRICS_PORT,
    host: config.HOST,
    logger,
  });
  for (const worker of workers) worker.run().catch((err: unknown) => logger.error({ err }, 'queue consumer stopped'));
  logger.info(
    { port: server.port, platforms: found.clients.map((c) => `${c.platform}:${c.model}`), at: config.COLLECT_AT_UTC },
    `${name} started`,
  );
  return {
    port: server.port,
    /** Enqueues the questions of `day` now (what the daily scheduler does at COLLECT_AT_UTC). */
    collectDay: (day?: string) => queueFor(answerScheduleJob).add(answerScheduleJob.name, day ? { day } : {}),
    close: closeOnce(async () => {
      closing = true;
      await Promise.all(workers.map((w) => w.close()));
      await server.close();
      await Promise.all([...queues.values()].map((q) => q.close()));
      await closeRedisConnection(redis);
      await closeRedisConnection(producer);
      await db.$disconnect();
    }),
  };
}
