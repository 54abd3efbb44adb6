import { keptCrawlEventSchema, LEAD_WEBHOOK_LIMITS, leadSchema } from '@vt/contracts';
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { QUEUE_NAMES } from './queue-names.ts';
import { DELAY_FROM_ERROR_BACKOFF } from './retry-later.ts';

// Every job's contract in one place: queue, zod payload, default options. The producer parses
// before `add`, the worker parses before handling, so a payload that drifted fails loudly. What a
// job carries of its ingest channel (a kept crawl event, a lead) is that channel's own schema
// from @vt/contracts, caps included: one definition from the sender's request to the worker.

/** A job: the queue it goes on, its name there, its payload schema and its default options. */
export interface JobContract<S extends z.ZodType = z.ZodType> {
  queue: string;
  name: string;
  schema: S;
  options: JobsOptions;
}

const DEFAULT_JOB_OPTIONS = Object.freeze({
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  // Bounded: completed jobs are dropped quickly (exactly-once lives in Postgres, not in job ids),
  // failed ones are kept a week for inspection.
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
} satisfies JobsOptions);

/**
 * The job of a scheduled tick (a BullMQ job scheduler adds one per interval for the whole
 * deployment, so one replica runs each tick): no payload, one attempt, since the next tick is the
 * retry; a short history.
 */
function tickJob<Q extends string, N extends string>(queue: Q, name: N) {
  return {
    queue,
    name,
    schema: z.strictObject({}),
    options: {
      ...DEFAULT_JOB_OPTIONS,
      attempts: 1,
      removeOnComplete: { count: 100 },
      removeOnFail: { age: 24 * 3600, count: 1000 },
    },
  } as const satisfies JobContract;
}

const isoInstant = z.iso.datetime({ offset: true });
const uuid = z.uuid();

/**
 * The most kept events one crawl-batch job carries; a batch that keeps more is enqueued as several
 * jobs, its chunks. A body may inflate to 100 MiB, about 600k kept events: as one job that was a
 * ~150 MB Redis value, parsed whole by a worker and written as one statement holding its locks
 * throughout (100k events measured 28 MB and 7 s), and retried whole if anything failed. 5,000
 * events make a job of about 1.4 MB and a statement of about 0.4 s, while the batches shippers
 * send (a few hundred to a few thousand lines) stay one job.
 */
export const CRAWL_BATCH_JOB_MAX_EVENTS = 5000;

export const crawlBatchJob = {
  queue: QUEUE_NAMES.crawlBatch,
  name: 'crawl-batch',
  schema: z.strictObject({
    /** The accepted batch's id, shared by all of its chunks. */
    batchId: uuid,
    /**
     * Which chunk of the batch this job is, from 0. Absent in jobs enqueued before batches were
     * chunked, which were whole batches: chunk 0.
     */
    chunk: z.int().nonnegative().default(0),
    propertyId: uuid,
    receivedAt: isoInstant,
    // No .max(CRAWL_BATCH_JOB_MAX_EVENTS): the worker parses with this schema too, and a job queued
    // before batches were chunked may hold more, yet was answered 202 and must still apply.
    // crawlBatchJobs, the one way a batch becomes jobs, keeps new jobs within it.
    events: z.array(keptCrawlEventSchema),
  }),
  options: DEFAULT_JOB_OPTIONS,
} as const satisfies JobContract;

/**
 * A chunk's name: its BullMQ job id, and (prefixed) the crawl worker's processed-jobs key. Derived
 * from the batch's id and the chunk's index only, so every attempt at a named batch names its
 * chunks alike and each is taken and applied once, while the chunks of one batch never collide.
 * Chunk 0 keeps the batch's own id, the id a whole batch had before batches were chunked: a replay
 * of a batch enqueued before the change still finds its job and its marker.
 */
export const crawlBatchChunkId = (batchId: string, chunk: number) => (chunk === 0 ? batchId : `${batchId}-${chunk}`);

/**
 * A batch's kept events as its jobs, in order, at most `maxEvents` each, with their job ids. The
 * one place a batch is cut, so a retry cuts it the same way.
 */
export function crawlBatchJobs(
  batch: Omit<CrawlBatchJobData, 'chunk' | 'events'>,
  events: readonly CrawlBatchJobData['events'][number][],
  maxEvents = CRAWL_BATCH_JOB_MAX_EVENTS,
): { data: CrawlBatchJobData; jobId: string }[] {
  if (!Number.isInteger(maxEvents) || maxEvents < 1) throw new RangeError(`maxEvents must be a positive integer`);
  const jobs: { data: CrawlBatchJobData; jobId: string }[] = [];
  for (let chunk = 0; chunk * maxEvents < events.length; chunk++) {
    const data = { ...batch, chunk, events: events.slice(chunk * maxEvents, (chunk + 1) * maxEvents) };
    jobs.push({ data, jobId: crawlBatchChunkId(batch.batchId, chunk) });
  }
  return jobs;
}

export const leadJob = {
  queue: QUEUE_NAMES.lead,
  name: 'lead',
  schema: z.strictObject({
    leadId: uuid,
    propertyId: uuid,
    eventId: z.string().min(1).max(LEAD_WEBHOOK_LIMITS.maxEventIdLength),
    receivedAt: isoInstant,
    lead: z.strictObject(leadSchema.shape),
    platform: z.string().nullable(),
  }),
  options: DEFAULT_JOB_OPTIONS,
} as const satisfies JobContract;

export type CrawlBatchJobData = z.infer<typeof crawlBatchJob.schema>;
export type LeadJobData = z.infer<typeof leadJob.schema>;

/**
 * Once a UTC day (a job scheduler), and on demand: enqueue every question of `day` (default:
 * today); with `propertyId`, that property's only (a collection started from the console). With
 * `spread` (the daily scheduler's), each question waits for its prompt's instant in the day's
 * collection window; without it (ops, the console) every question is asked at once.
 */
export const answerScheduleJob = {
  queue: QUEUE_NAMES.answerSchedule,
  name: 'collect-day',
  schema: z.strictObject({
    day: z.iso.date().optional(),
    propertyId: uuid.optional(),
    spread: z.boolean().optional(),
  }),
  options: { ...DEFAULT_JOB_OPTIONS, attempts: 3 },
} as const satisfies JobContract;

const collectAnswerSchema = z.strictObject({
  propertyId: uuid,
  promptId: uuid,
  platform: z.string().min(1).max(32),
  day: z.iso.date(),
  /** The run the question belongs to (answer_collection_runs), counted as it ends; absent in older jobs. */
  runId: uuid.optional(),
});

/**
 * One question for one platform and day, on that platform's own queue: a platform that is down or
 * rate-limiting is retried on its queue, never holding up another, after the wait the collector
 * gives (`RetryLaterError`: the platform's Retry-After when it said one, else exponential with jitter).
 */
export function collectAnswerJob(platform: string) {
  return {
    queue: `${QUEUE_NAMES.answersPrefix}${platform}`,
    name: 'collect-answer',
    schema: collectAnswerSchema,
    options: {
      ...DEFAULT_JOB_OPTIONS,
      attempts: 6,
      backoff: { type: DELAY_FROM_ERROR_BACKOFF },
    },
  } as const satisfies JobContract;
}

/** Judge a property's stored answers again, after its brand terms or competitors changed. */
export const rejudgePropertyJob = {
  queue: QUEUE_NAMES.answerRejudge,
  name: 'rejudge-property',
  schema: z.strictObject({ propertyId: uuid }),
  options: DEFAULT_JOB_OPTIONS,
} as const satisfies JobContract;

export type CollectAnswerJobData = z.infer<typeof collectAnswerSchema>;

/**
 * Deliver one outgoing email (a row of outgoing_emails, @vt/mail). The job id is the row's id, so
 * a row is queued once however often its producer wakes the sender. The job only wakes the
 * notifier: the row holds the truth (its claim, attempts and next attempt), so an SMTP failure
 * completes the job and the sweep queues the row again when it is due; BullMQ's own attempts are
 * for failures to reach Postgres.
 */
export const emailJob = {
  queue: QUEUE_NAMES.email,
  name: 'send-email',
  schema: z.strictObject({ emailId: uuid }),
  options: { ...DEFAULT_JOB_OPTIONS, attempts: 5 },
} as const satisfies JobContract;

export type EmailJobData = z.infer<typeof emailJob.schema>;

/**
 * Every MAIL_SWEEP_INTERVAL_MS (a job scheduler, so one notifier replica sweeps at a time): queue
 * again the emails that are due and have no job (a producer whose wake-up was lost after its
 * commit, a retry whose wait is over, a row left mid-send by a notifier that died).
 */
export const emailSweepJob = tickJob(QUEUE_NAMES.emailSweep, 'sweep-emails');

/**
 * Attempts at one alert webhook delivery, over about a day (the schedule is the processor's, in
 * @vt/outgoing-webhooks, which tells BullMQ each delay through `RetryLaterError`).
 */
export const WEBHOOK_DELIVERY_MAX_ATTEMPTS = 8;

/** One alert webhook delivery (a notification for one destination), under the delivery's id. */
export const webhookDeliveryJob = {
  queue: QUEUE_NAMES.webhookDelivery,
  name: 'deliver-webhook',
  schema: z.strictObject({ deliveryId: uuid }),
  options: {
    ...DEFAULT_JOB_OPTIONS,
    attempts: WEBHOOK_DELIVERY_MAX_ATTEMPTS,
    backoff: { type: DELAY_FROM_ERROR_BACKOFF },
  },
} as const satisfies JobContract;

export type WebhookDeliveryJobData = z.infer<typeof webhookDeliveryJob.schema>;

/**
 * The notifier's look for weekly reports due, every WEEKLY_REPORT_INTERVAL_MS: one job per tick for
 * the deployment. Exactly-once is the outbox's (each report's dedupe key), not the job's.
 */
export const weeklyReportsJob = tickJob(QUEUE_NAMES.weeklyReports, 'send-due-weekly-reports');

/**
 * Every minute (a job scheduler, so one notifier replica sweeps at a time): queue again the alert
 * webhook deliveries that are due and have no job, and prune old finished ones (@vt/outgoing-webhooks).
 */
export const webhookDeliverySweepJob = tickJob(QUEUE_NAMES.webhookDeliverySweep, 'sweep-webhook-deliveries');

/**
 * Every ALERT_EVALUATION_INTERVAL_MS (a job scheduler): evaluate every property's alert rules
 * (@vt/alerts). Exactly once does not rest on the queue: each property is evaluated in a
 * transaction that locks its rules, and every message it records carries a key derived from the
 * rule's change of state, so a replayed or concurrent evaluation sends nothing twice.
 */
export const alertEvaluationJob = tickJob(QUEUE_NAMES.alertEvaluation, 'evaluate-alerts');
