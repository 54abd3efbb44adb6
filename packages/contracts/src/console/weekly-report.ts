import { z } from 'zod';
import '../errors.ts';

// The weekly report in the console: a person's own subscription to a property's report, the
// preview of this week's report (what the email holds), and the one-click unsubscribe link.

const timestamp = z.iso.datetime({ offset: true });
const utcDay = z.iso.date();

/** A token is a subscription id and a MAC (80 characters); anything much longer is not one. */
export const UNSUBSCRIBE_TOKEN_MAX = 200;

export const weeklyReportSubscriptionSchema = z
  .object({
    subscribed: z.boolean().openapi({ description: 'Whether the caller receives this property’s weekly report.' }),
    since: timestamp.nullable().openapi({ description: 'When the caller subscribed; null when not subscribed.' }),
  })
  .openapi('WeeklyReportSubscription');

export const weeklyReportPreviewSchema = z
  .object({
    week: z
      .string()
      .openapi({ description: 'The ISO week the report covers, in the team’s time zone.', example: '2026-W47' }),
    from: utcDay.openapi({ description: 'Its Monday (counts are kept per UTC day).' }),
    to: utcDay.openapi({ description: 'Its Sunday.' }),
    dueAt: timestamp.openapi({ description: 'When this report is (or was) sent: Monday 08:00 team time.' }),
    timeZone: z.string().openapi({ description: 'The team’s time zone (UTC when it set none).' }),
    subscribed: z.boolean(),
    subject: z.string(),
    html: z.string().openapi({ description: 'The HTML part, exactly as mailed: show it in a sandboxed frame.' }),
    text: z.string().openapi({ description: 'The plain-text part, exactly as mailed.' }),
  })
  .openapi('WeeklyReportPreview');

export const unsubscribeReportQuery = z.strictObject({
  token: z
    .string()
    .min(1)
    .max(UNSUBSCRIBE_TOKEN_MAX)
    .openapi({ description: 'The token of the report’s unsubscribe link.' }),
});

export const unsubscribedReportSchema = z
  .object({
    unsubscribed: z.boolean().openapi({
      description: 'true: unsubscribed now; false: the subscription was gone already (a link used twice).',
    }),
    propertyName: z
      .string()
      .nullable()
      .openapi({ description: 'The property whose report stopped; null when gone already.' }),
  })
  .openapi('UnsubscribedReport');
