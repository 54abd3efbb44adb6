import { z } from 'zod';
import '../errors.ts';

// What the console says of answer collection: which AI platforms this deployment asks (the
// collector publishes it), when the daily run is next, what the last run did for the property,
// and whether a collection can be started now.

const timestamp = z.iso.datetime({ offset: true });

/** How many collections a property may start from the console per window, and the window. */
export const COLLECT_NOW_LIMIT = { perProperty: 1, windowSeconds: 3600 } as const;

const lastRunSchema = z
  .object({
    trigger: z
      .enum(['daily', 'manual'])
      .openapi({ description: 'daily: the schedule; manual: started from the console.' }),
    day: z.iso.date().openapi({ description: 'The UTC day the questions were asked for.' }),
    startedAt: timestamp,
    finishedAt: timestamp.nullable().openapi({ description: 'Null while questions are still being asked or retried.' }),
    questions: z.number().int().openapi({ description: 'Questions (active prompts) the run asked this platform.' }),
    stored: z.number().int().openapi({ description: 'Answers collected and stored.' }),
    skipped: z
      .number()
      .int()
      .openapi({ description: 'Questions skipped: already answered that day, or paused since.' }),
    failed: z.number().int().openapi({ description: 'Questions given up on after their last attempt.' }),
    retries: z.number().int().openapi({ description: 'Failed attempts that were tried again.' }),
    lastError: z.string().nullable().openapi({ description: 'The last failure, as the platform’s HTTP status.' }),
  })
  .openapi('CollectionRun');

const requestsTodaySchema = z
  .object({
    day: z.iso.date().openapi({ description: 'Today, the UTC day the budget counts.' }),
    requests: z
      .number()
      .int()
      .openapi({ description: 'Requests sent to the platform today by every collector replica, retries included.' }),
    budget: z.number().int().nullable().openapi({
      description:
        'The deployment’s daily request budget for the platform (<PLATFORM>_DAILY_REQUESTS); null: no limit.',
    }),
    skippedBudget: z
      .number()
      .int()
      .openapi({ description: 'Questions not sent today because the budget was spent (they are not carried over).' }),
  })
  .openapi('CollectionRequestsToday', {
    description: 'Spend against budget, for the whole deployment (every property shares a platform’s budget).',
  });

const platformStatusSchema = z
  .object({
    platform: z
      .string()
      .openapi({ description: 'The platform id (chatgpt, …), the value of the answers’ model filter.' }),
    name: z.string().openapi({ description: 'Its product name (ChatGPT, …).' }),
    configured: z.boolean().openapi({ description: 'Whether the collector has a key for it and asks it.' }),
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why it is not asked (the variable to set); null when it is.' }),
    lastRun: lastRunSchema
      .nullable()
      .openapi({ description: 'The property’s most recent run on it; null before one.' }),
    today: requestsTodaySchema,
  })
  .openapi('CollectionPlatform');

export const collectionStatusSchema = z
  .object({
    reported: z.boolean().openapi({
      description: 'Whether the answer collector has ever reported; false when it has not run against this database.',
    }),
    collectAtUtc: z.string().nullable().openapi({ description: 'The daily run’s time, HH:MM UTC.' }),
    nextRunAt: timestamp.nullable().openapi({
      description: 'When the daily run is next, as the collector last reported; in the past when it stopped reporting.',
    }),
    reportedAt: timestamp.nullable(),
    platforms: z.array(platformStatusSchema),
    collectNow: z
      .object({
        allowed: z.boolean().openapi({ description: 'Whether an owner or admin can start a collection now.' }),
        reason: z.string().nullable().openapi({ description: 'Why not, in plain words; null when allowed.' }),
        availableAt: timestamp.nullable().openapi({
          description: 'When the next collection may start, if one was started within the hour.',
        }),
      })
      .openapi({ description: `At most ${COLLECT_NOW_LIMIT.perProperty} per property per hour.` }),
  })
  .openapi('CollectionStatus');
