import { keptCrawlEventSchema, LEAD_WEBHOOK_LIMITS, leadSchema } from '@vt/contracts';
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { QUEUE_NAMES } from './queue-names.ts';

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

const isoInstant = z.iso.datetime({ offset: true });
const uuid = z.uuid();

export const crawlBatchJob = {
  queue: QUEUE_NAMES.crawlBatch,
  name: 'crawl-batch',
  schema: z.strictObject({
    batchId: uuid,
    propertyId: uuid,
    receivedAt: isoInstant,
    events: z.array(keptCrawlEventSchema),
  }),
  options: DEFAULT_JOB_OPTIONS,
} as const satisfies JobContract;

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

/** Once a UTC day (a job scheduler), and on demand: enqueue every question of `day` (default: today). */
export const answerScheduleJob = {
  queue: QUEUE_NAMES.answerSchedule,
  name: 'collect-day',
  schema: z.strictObject({ day: z.iso.date().optional() }),
  options: { ...DEFAULT_JOB_OPTIONS, attempts: 3 },
} as const satisfies JobContract;

const collectAnswerSchema = z.strictObject({
  propertyId: uuid,
  promptId: uuid,
  platform: z.string().min(1).max(32),
  day: z.iso.date(),
});

/**
 * One question for one platform and day, on that platform's own queue: a platform that is down or
 * rate-limiting retries with exponential backoff and jitter on its queue, never holding up another.
 */
export function collectAnswerJob(platform: string) {
  return {
    queue: `${QUEUE_NAMES.answersPrefix}${platform}`,
    name: 'collect-answer',
    schema: collectAnswerSchema,
    options: {
      ...DEFAULT_JOB_OPTIONS,
      attempts: 6,
      backoff: { type: 'exponential', delay: 30_000, jitter: 0.5 },
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
