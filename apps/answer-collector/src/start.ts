import type { AnswerCollectorConfig } from '@vt/config';
import { formatUtcDay, utcDay } from '@vt/db';
import type { Logger } from '@vt/logger';
import {
  answerScheduleJob,
  type CollectAnswerJobData,
  collectAnswerJob,
  type Queue,
  RateLimitError,
  RetryLaterError,
  rejudgePropertyJob,
  UnrecoverableError,
} from '@vt/queue';
import { jobWorker, type QueueJobWorker, startQueueWorker } from '@vt/service-runtime';
import { Counter, Gauge } from 'prom-client';
import { collectAnswer, PlatformPaused, platformPauseMs, retryDelayMs } from './jobs/collect-answer.ts';
import { countQuestionEnd, failedAttemptEnd, openRuns, publishPlatformStatus } from './jobs/collection-status.ts';
import { rejudgeProperty } from './jobs/rejudge-property.ts';
import { platformLimits } from './jobs/request-budget.ts';
import { questionJobId, questionsOfDay } from './jobs/schedule-day.ts';
import { spreadDelayMs } from './jobs/spread.ts';
import { type PlatformClient, PlatformError, platformClients } from './platforms/index.ts';

/** `06:00` → the cron pattern of that minute each day (the scheduler runs it in UTC). */
const dailyPattern = (hhmm: string) => {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return `${minutes} ${hours} * * *`;
};

/**
 * The questions to enqueue: one whose job still waits or runs is left to it (its run counts it);
 * one whose job ended (failed, or skipped while the prompt was paused) is enqueued afresh, its old
 * job removed, since BullMQ keeps ended jobs under their id for a while and would ignore the add.
 * Asking twice stays impossible: a stored answer ends a job before the platform is asked.
 * `immediate` (ops, the console): a job still holding for its spread instant, never tried, is
 * asked now instead; one waiting to retry keeps its wait (the platform's Retry-After).
 */
async function withoutPendingJobs(
  questions: readonly CollectAnswerJobData[],
  queueOf: (q: CollectAnswerJobData) => Queue,
  immediate: boolean,
): Promise<CollectAnswerJobData[]> {
  const kept: CollectAnswerJobData[] = [];
  for (const question of questions) {
    const job = await queueOf(question).getJob(questionJobId(question));
    if (job) {
      const state = await job.getState();
      if (immediate && state === 'delayed' && job.attemptsMade === 0) await job.promote();
      if (state !== 'completed' && state !== 'failed') continue;
      await job.remove();
    }
    kept.push(question);
  }
  return kept;
}

/**
 * The limiter of each platform's queue. It never binds (a million questions a second); it is there
 * because BullMQ honours a queue's pause (`queue.rateLimit`, set on a 429) only on a queue whose
 * workers have a limiter.
 */
const PAUSABLE = { max: 1_000_000, duration: 1_000 } as const;

/** What a run keeps of a failure: the platform's status, never its body or the request. */
function failureOf(err: unknown): string {
  if (err instanceof PlatformError) return err.status ? `HTTP ${err.status}` : 'no answer (network or timeout)';
  return 'internal error';
}

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
 * On the shared worker shell (startQueueWorker): health, readiness and metrics on
 * ANSWER_COLLECTOR_METRICS_PORT, ordered shutdown.
 */
export async function startAnswerCollector(
  config: AnswerCollectorConfig,
  logger: Logger,
  options: AnswerCollectorOptions = {},
) {
  const now = options.now ?? (() => new Date());
  const fromConfig = platformClients(config);
  // Given clients stand in for the config's; the platforms they leave out are skipped as the config says.
  const given = options.clients;
  const found = given
    ? { clients: given, skipped: fromConfig.skipped.filter((s) => !given.some((c) => c.platform === s.platform)) }
    : fromConfig;
  const budgets = Object.fromEntries(
    found.clients.map((c) => [c.platform, platformLimits(config, c.platform).dailyRequests ?? null]),
  );
  const service = await startQueueWorker({
    name: 'answer-collector',
    config,
    port: config.ANSWER_COLLECTOR_METRICS_PORT,
    logger,
    enqueues: true,
    workers: async ({ db, registry, queue }): Promise<QueueJobWorker[]> => {
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
      for (const client of found.clients) enabled.set({ platform: client.platform }, 1);
      for (const { platform, reason } of found.skipped) {
        enabled.set({ platform }, 0);
        logger.warn({ platform, reason }, 'platform skipped: its answers are not collected');
      }

      // The day's questions (of one property, for a collection started from the console), each
      // run counted per property and platform for the console to tell.
      const schedule = jobWorker({
        contract: answerScheduleJob,
        concurrency: 1,
        handle: async ({ day, propertyId, spread }) => {
          const of = day ?? formatUtcDay(utcDay(now()));
          const questions = await questionsOfDay(
            db,
            found.clients.map((c) => c.platform),
            of,
            propertyId,
          );
          const toAsk = await withoutPendingJobs(questions, (q) => queue(collectAnswerJob(q.platform)), !spread);
          const withRuns = await openRuns(db, toAsk, propertyId ? 'manual' : 'daily', now());
          const at = now();
          for (const question of withRuns) {
            const contract = collectAnswerJob(question.platform);
            const delay = spread
              ? spreadDelayMs(question.promptId, question.day, config.COLLECT_AT_UTC, config.COLLECT_SPREAD_HOURS, at)
              : 0;
            await queue(contract).add(contract.name, contract.schema.parse(question), {
              jobId: questionJobId(question),
              ...(delay > 0 ? { delay } : {}),
            });
          }
          await publishPlatformStatus(db, found, config.COLLECT_AT_UTC, now(), budgets);
          logger.info({ day: of, propertyId, spread, questions: withRuns.length }, 'questions of the day enqueued');
          return { applied: true };
        },
        jobFields: (data) => ({ day: data.day, propertyId: data.propertyId }),
        claimsProcessedJobs: false,
      });

      // One queue and worker per platform. A platform's concurrency, when set, holds across every
      // replica (BullMQ's global concurrency on its queue); each process also keeps to its own.
      // A 429 pauses the platform's queue, so every replica stops sending that platform's
      // questions until its Retry-After has passed; the other platforms' queues go on.
      const perPlatform: QueueJobWorker[] = [];
      for (const client of found.clients) {
        const limits = platformLimits(config, client.platform);
        const contract = collectAnswerJob(client.platform);
        const platformQueue = queue(contract);
        if (limits.concurrency) await platformQueue.setGlobalConcurrency(limits.concurrency);
        else await platformQueue.removeGlobalConcurrency();
        // The pause left, read before each request: a question fetched just before the pause began.
        const pausedForMs = async () => Math.max(0, await platformQueue.getRateLimitTtl(PAUSABLE.max));
        perPlatform.push(
          jobWorker({
            contract,
            concurrency: Math.min(
              config.COLLECT_CONCURRENCY_PER_PLATFORM,
              limits.concurrency ?? Number.POSITIVE_INFINITY,
            ),
            limiter: PAUSABLE,
            handle: async (data, attempt) => {
              try {
                const outcome = await collectAnswer(db, client, data, {
                  now,
                  dailyRequests: limits.dailyRequests,
                  pausedForMs,
                });
                answered.inc({ platform: client.platform, outcome: outcome.applied ? 'collected' : outcome.reason });
                await countQuestionEnd(db, data.runId, outcome.applied ? 'stored' : 'skipped');
                return outcome;
              } catch (err) {
                // Not sent: back to the queue, no attempt counted, the question not ended. BullMQ
                // holds the queue until the pause has passed.
                if (err instanceof PlatformPaused) {
                  answered.inc({ platform: client.platform, outcome: 'paused' });
                  throw new RateLimitError();
                }
                const pause = platformPauseMs(err);
                if (pause !== null) {
                  await platformQueue.rateLimit(pause);
                  logger.warn({ platform: client.platform, pauseMs: pause }, 'platform answered 429: paused');
                }
                const retryable = !(err instanceof PlatformError) || err.retryable;
                answered.inc({ platform: client.platform, outcome: retryable ? 'retrying' : 'failed' });
                await countQuestionEnd(db, data.runId, failedAttemptEnd(retryable, attempt), failureOf(err));
                // A refusal that would only repeat (a bad key, a bad request) is not retried.
                if (err instanceof PlatformError && !err.retryable) throw new UnrecoverableError(err.message);
                // The platform's Retry-After, else exponential with jitter: BullMQ waits what the error says.
                if (err instanceof PlatformError)
                  throw new RetryLaterError(retryDelayMs(err, attempt.made), err.message);
                throw err;
              }
            },
            // Ids only: the prompt's text and the answer stay out of the logs.
            jobFields: (data) => ({ propertyId: data.propertyId, promptId: data.promptId, day: data.day }),
            claimsProcessedJobs: false,
          }),
        );
      }

      const rejudge = jobWorker({
        contract: rejudgePropertyJob,
        concurrency: 1,
        handle: async ({ propertyId }) => {
          const outcome = await rejudgeProperty(db, propertyId);
          if (outcome.applied) logger.info({ propertyId }, 'property re-judged');
          return outcome;
        },
        jobFields: (data) => ({ propertyId: data.propertyId }),
        claimsProcessedJobs: false,
      });

      await publishPlatformStatus(db, found, config.COLLECT_AT_UTC, now(), budgets);
      await queue(answerScheduleJob).upsertJobScheduler(
        'daily-collection',
        { pattern: dailyPattern(config.COLLECT_AT_UTC), tz: 'UTC' },
        { name: answerScheduleJob.name, data: { spread: true } },
      );
      return [schedule, ...perPlatform, rejudge];
    },
  });
  logger.info(
    { platforms: found.clients.map((c) => `${c.platform}:${c.model}`), at: config.COLLECT_AT_UTC },
    'collecting answers',
  );
  return {
    port: service.port,
    /**
     * Enqueues the questions of `day` now, each asked at once; with `spread`, each at its prompt's
     * instant in the collection window (what the daily scheduler does at COLLECT_AT_UTC).
     */
    collectDay: (day?: string, propertyId?: string, spread?: boolean) =>
      service.queue(answerScheduleJob).add(answerScheduleJob.name, {
        ...(day ? { day } : {}),
        ...(propertyId ? { propertyId } : {}),
        ...(spread ? { spread } : {}),
      }),
    /** The queue of a contract (tests read a question's job: its delay, its state). */
    queue: service.queue,
    close: service.close,
  };
}
