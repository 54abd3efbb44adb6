import { z } from 'zod';
import '../errors.ts'; // extends zod with .openapi()
import { alertNotificationTypeSchema } from '../alert-notification.ts';
import { ALERT_NOTIFICATIONS_SHOWN, ALERT_RECIPIENTS_MAX, ALERT_RULE_KINDS, ALERT_THRESHOLDS } from './limits.ts';

// The console's alert rules: what each of a property's rules watches, its threshold, who hears
// it, its current state, and the messages the rules sent lately. One screen of the console.

const timestamp = z.iso.datetime({ offset: true });

export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];
export type ThresholdedAlertRuleKind = keyof typeof ALERT_THRESHOLDS;

export const alertRuleKindSchema = z.enum(ALERT_RULE_KINDS).openapi('AlertRuleKind', {
  description: [
    'crawl_nothing_arriving: the crawl connection is Nothing arriving (batches came before, none for 24 hours);',
    'crawl_rejecting: the crawl connection is Rejecting (every batch of the last 24 hours turned away);',
    'webhook_rejecting: the lead webhook is Rejecting events;',
    'crawler_hits_drop: AI crawler hits of the last 7 whole UTC days down at least `threshold` % on the 7 before (with at least 50 hits the week before);',
    'visibility_drop: visibility of the last 7 whole UTC days down at least `threshold` points on the 7 before (at least 10 answers each week);',
    'share_of_voice_drop: share of voice down at least `threshold` points, the same weeks (at least 10 brand and competitor mentions each week);',
    'new_competitor: a tracked competitor named in answers of the last day that no answer named in the 30 days before (one message per new name).',
  ].join(' '),
});

/** What an evaluation measured, as the rule's row keeps it (jsonb) and the console shows it. */
export const alertObservedSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]),
);

export const hasThreshold = (kind: AlertRuleKind): kind is ThresholdedAlertRuleKind => kind in ALERT_THRESHOLDS;

const ruleChange = z.strictObject({
  kind: alertRuleKindSchema,
  enabled: z.boolean().optional(),
  threshold: z.number().finite().optional().openapi({
    description:
      'crawler_hits_drop: percent, 10 to 100; visibility_drop and share_of_voice_drop: points, 1 to 100. Refused for the other kinds.',
  }),
  emailTo: z.enum(['owners_and_admins', 'chosen']).optional().openapi({
    description:
      'owners_and_admins: the team’s owners and admins of the day; chosen: the members in `emailUserIds` (none: no email).',
  }),
  emailUserIds: z
    .array(z.uuid())
    .max(ALERT_RECIPIENTS_MAX)
    .optional()
    .openapi({
      description: `Members of the team (user ids), at most ${ALERT_RECIPIENTS_MAX}; used with emailTo chosen.`,
    }),
  webhooks: z.boolean().optional().openapi({ description: 'Post to the property’s enabled alert webhooks.' }),
});

export const updateAlertRulesBody = z
  .strictObject({ rules: z.array(ruleChange).min(1).max(ALERT_RULE_KINDS.length) })
  .superRefine(({ rules }, ctx) => {
    const seen = new Set<string>();
    rules.forEach((rule, i) => {
      if (seen.has(rule.kind)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'kind'], message: 'given twice' });
      seen.add(rule.kind);
      if (rule.threshold === undefined) return;
      if (!hasThreshold(rule.kind)) {
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'threshold'], message: `${rule.kind} has no threshold` });
        return;
      }
      const range = ALERT_THRESHOLDS[rule.kind];
      if (rule.threshold < range.min || rule.threshold > range.max) {
        ctx.addIssue({
          code: 'custom',
          path: ['rules', i, 'threshold'],
          message: `must be from ${range.min} to ${range.max} (${range.unit})`,
        });
      }
    });
  })
  .openapi('UpdateAlertRules', { description: 'The rules to change, by kind; fields left out stay as they are.' });

export type UpdateAlertRules = z.output<typeof updateAlertRulesBody>;

export const alertRuleSchema = z
  .object({
    kind: alertRuleKindSchema,
    enabled: z.boolean(),
    threshold: z.number().nullable(),
    thresholdRange: z
      .object({ unit: z.enum(['percent', 'points']), min: z.number(), max: z.number(), default: z.number() })
      .nullable(),
    emailTo: z.enum(['owners_and_admins', 'chosen']),
    emailUserIds: z.array(z.uuid()).openapi({ description: 'Chosen recipients still in the team.' }),
    webhooks: z.boolean(),
    state: z.object({
      status: z.enum(['ok', 'firing']),
      since: timestamp.nullable(),
      pending: z
        .enum(['firing', 'ok'])
        .nullable()
        .openapi({ description: 'The other status, seen but not yet held long enough to change to.' }),
      lastNotifiedAt: timestamp.nullable(),
      lastReminderAt: timestamp.nullable(),
      evaluatedAt: timestamp.nullable(),
      observed: alertObservedSchema
        .nullable()
        .openapi({ description: 'What the last evaluation measured (statuses, figures and their weeks).' }),
    }),
  })
  .openapi('AlertRule');

export const alertRulesSchema = z
  .object({
    rules: z.array(alertRuleSchema),
    notifications: z
      .array(
        z.object({
          eventId: z.string(),
          kind: alertRuleKindSchema,
          type: alertNotificationTypeSchema,
          occurredAt: timestamp,
          subject: z.string(),
          emails: z.number().int(),
          webhooks: z.number().int(),
        }),
      )
      .openapi({ description: `The ${ALERT_NOTIFICATIONS_SHOWN} newest messages the rules sent, newest first.` }),
    webhookCount: z.number().int().openapi({ description: 'The property’s enabled alert webhooks.' }),
  })
  .openapi('AlertRules');
