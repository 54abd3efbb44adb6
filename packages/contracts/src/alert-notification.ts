import { z } from 'zod';

// What an alert says when it is sent out: the alert rules produce it, each channel renders it (an
// alert webhook posts it as Slack text or as a signed Standard Webhooks event). Bounded in every
// field, since it is stored once per destination and posted to people's receivers.

export const ALERT_NOTIFICATION_TYPES = ['alert.firing', 'alert.reminder', 'alert.resolved', 'alert.test'] as const;
export type AlertNotificationType = (typeof ALERT_NOTIFICATION_TYPES)[number];
export const alertNotificationTypeSchema = z.enum(ALERT_NOTIFICATION_TYPES);

export const ALERT_NOTIFICATION_LIMITS = {
  /** The event id: the `webhook-id` header and the key deliveries are deduplicated on. */
  maxEventIdLength: 128,
  maxTextLength: 1000,
  /** `data` as JSON, in characters. */
  maxDataLength: 16 * 1024,
} as const;

/** Postgres can store no NUL in text or jsonb: refused before it is written. */
const withoutNul = (v: string) => !v.includes('\u0000');

export const alertNotificationSchema = z.strictObject({
  /**
   * Stable for one change of state (the same alert firing replayed gives the same id), so a
   * receiver deduplicates on `webhook-id` and the service records one delivery per destination.
   * Header-safe characters only.
   */
  eventId: z
    .string()
    .min(1)
    .max(ALERT_NOTIFICATION_LIMITS.maxEventIdLength)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'may hold only letters, digits, _ . : and -'),
  type: alertNotificationTypeSchema,
  occurredAt: z.iso.datetime({ offset: true }),
  property: z.strictObject({
    id: z.uuid(),
    name: z.string().min(1).max(200).refine(withoutNul, 'must not contain NUL characters'),
    domain: z.string().min(1).max(253),
  }),
  /** One line a person reads (Slack's message, the event's summary). */
  text: z
    .string()
    .trim()
    .min(1)
    .max(ALERT_NOTIFICATION_LIMITS.maxTextLength)
    .regex(/^[^\r\n]*$/, 'must be one line')
    .refine(withoutNul, 'must not contain NUL characters'),
  /** What the alert measured (rule, figures, thresholds), passed on as the event's `details`. */
  data: z
    .record(z.string(), z.json())
    .default({})
    .refine(
      (data) => JSON.stringify(data).length <= ALERT_NOTIFICATION_LIMITS.maxDataLength,
      `must be at most ${ALERT_NOTIFICATION_LIMITS.maxDataLength} characters as JSON`,
    )
    .refine((data) => !JSON.stringify(data).includes('\\u0000'), 'must not contain NUL characters'),
});

export type AlertNotification = z.output<typeof alertNotificationSchema>;
export type AlertNotificationInput = z.input<typeof alertNotificationSchema>;
