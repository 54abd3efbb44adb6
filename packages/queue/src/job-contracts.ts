import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { QUEUE_NAMES } from './queue-names.ts';

// Every job's contract in one place: queue, zod payload, default options. The producer parses
// before `add`, the worker parses before handling, so a payload that drifted fails loudly.

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

/**
 * The kept events of one crawl batch. There is deliberately no `ip` field: the gateway verifies
 * a crawler's IP and drops it before the job is built, and `strict` refuses one that slipped in.
 */
const keptCrawlEvent = z.strictObject({
  occurredAt: isoInstant,
  host: z.string().max(253),
  path: z.string().max(8192),
  userAgent: z.string().max(4096),
  statusCode: z.number().int().min(100).max(999),
  method: z.string().max(16).optional(),
  referer: z.string().max(8192).optional(),
  crawler: z.string().optional(),
  operator: z.string().optional(),
  verification: z.enum(['verified', 'unverified', 'unverifiable']).optional(),
  aiPlatform: z.string().optional(),
});

export const crawlBatchJob = {
  queue: QUEUE_NAMES.crawlBatch,
  name: 'crawl-batch',
  schema: z.strictObject({
    batchId: uuid,
    propertyId: uuid,
    receivedAt: isoInstant,
    events: z.array(keptCrawlEvent),
  }),
  options: DEFAULT_JOB_OPTIONS,
} as const;

export const leadJob = {
  queue: QUEUE_NAMES.lead,
  name: 'lead',
  schema: z.strictObject({
    leadId: uuid,
    propertyId: uuid,
    eventId: z.string().min(1).max(128),
    receivedAt: isoInstant,
    lead: z.strictObject({
      contact: z.string().max(320),
      email: z.string().max(320).optional(),
      sessionId: z.string().max(128).optional(),
      landingPath: z.string().max(2048).optional(),
      referrer: z.string().max(2048).optional(),
      utmSource: z.string().max(256).optional(),
      utmMedium: z.string().max(256).optional(),
    }),
    platform: z.string().nullable(),
  }),
  options: DEFAULT_JOB_OPTIONS,
} as const;

export type CrawlBatchJobData = z.infer<typeof crawlBatchJob.schema>;
export type LeadJobData = z.infer<typeof leadJob.schema>;

export const jobContracts = [crawlBatchJob, leadJob] as const;
