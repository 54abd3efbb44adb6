import { z } from 'zod';
import '../errors.ts'; // extends zod with .openapi()
import { alertNotificationTypeSchema } from '../alert-notification.ts';
import { cursorPageFields } from '../list-cursor.ts';
import {
  ALERT_WEBHOOK_DESCRIPTION_MAX,
  ALERT_WEBHOOK_LOG_MAX,
  ALERT_WEBHOOKS_PER_PROPERTY,
  URL_MAX,
} from './limits.ts';

// The console's alert webhooks: where a property's alerts are posted (Slack-compatible or signed
// Standard Webhooks events), and the delivery log of each. Requests and answers together: this
// resource is one screen of the console.

const timestamp = z.iso.datetime({ offset: true });

export const alertWebhookFormatSchema = z.enum(['slack', 'standard']).openapi('AlertWebhookFormat', {
  description:
    'slack: a Slack-compatible incoming webhook, posted `{"text": …}`; standard: a JSON event signed as Standard Webhooks specifies (webhook-id, webhook-timestamp, webhook-signature).',
});

const webhookUrlInput = z.string().trim().min(1, 'must not be blank').max(URL_MAX).openapi({
  description:
    'An https URL without a user name or password, whose host resolves to public addresses only (checked when saved and at every delivery). A refused URL answers 400 INVALID_BODY saying why.',
  example: 'https://hooks.slack.com/services/T000/B000/XXXX',
});

const descriptionInput = z
  .string()
  .trim()
  .max(ALERT_WEBHOOK_DESCRIPTION_MAX)
  .openapi({ description: `A note for people, at most ${ALERT_WEBHOOK_DESCRIPTION_MAX} characters.` });

export const createAlertWebhookBody = z
  .strictObject({ format: alertWebhookFormatSchema, url: webhookUrlInput, description: descriptionInput.default('') })
  .openapi('CreateAlertWebhook');

export const updateAlertWebhookBody = z
  .strictObject({
    url: webhookUrlInput.optional(),
    description: descriptionInput.optional(),
    enabled: z
      .boolean()
      .optional()
      .openapi({ description: 'false: nothing is delivered to it until it is enabled again.' }),
  })
  .openapi('UpdateAlertWebhook');

export const attemptOutcomeSchema = z.enum(['delivered', 'retrying', 'failed']);

const lastAttemptSchema = z.object({
  attemptedAt: timestamp,
  outcome: attemptOutcomeSchema,
  statusCode: z.number().int().nullable(),
  errorClass: z.string().nullable(),
});

export const alertWebhookSchema = z
  .object({
    id: z.uuid(),
    format: alertWebhookFormatSchema,
    url: z
      .string()
      .nullable()
      .openapi({ description: 'Null for members: a Slack URL is itself a credential. `host` says where it goes.' }),
    host: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    createdAt: timestamp,
    secret: z.string().nullable().openapi({
      description:
        'The signing secret of a standard webhook (`whsec_…`), to verify its events with. Null for Slack webhooks, for members, and when ALERT_WEBHOOK_SIGNING_KEY is not set.',
    }),
    lastAttempt: lastAttemptSchema.nullable(),
    pendingDeliveries: z.number().int().openapi({ description: 'Deliveries waiting for their first or next attempt.' }),
  })
  .openapi('AlertWebhook');

export const alertWebhooksSchema = z
  .object({
    webhooks: z.array(alertWebhookSchema),
    ...cursorPageFields,
    limit: z
      .number()
      .int()
      .openapi({ description: `Webhooks a property may have (${ALERT_WEBHOOKS_PER_PROPERTY}).` }),
    signingConfigured: z
      .boolean()
      .openapi({ description: 'Whether standard (signed) webhooks can be added: ALERT_WEBHOOK_SIGNING_KEY is set.' }),
  })
  .openapi('AlertWebhooks');

export const alertWebhookAnswerSchema = z.object({ webhook: alertWebhookSchema }).openapi('AlertWebhookAnswer');

export const alertWebhookTestSchema = z
  .object({
    delivery: z.object({ id: z.uuid(), eventId: z.string(), status: z.enum(['pending', 'delivered', 'failed']) }),
  })
  .openapi('AlertWebhookTest');

export const alertWebhookLogSchema = z
  .object({
    webhookId: z.uuid(),
    attempts: z
      .array(
        z.object({
          deliveryId: z.uuid(),
          eventId: z.string(),
          eventType: alertNotificationTypeSchema,
          attempt: z.number().int(),
          attemptedAt: timestamp,
          durationMs: z.number().int(),
          statusCode: z
            .number()
            .int()
            .nullable()
            .openapi({ description: 'The receiver’s status; null when none came.' }),
          errorClass: z.string().nullable().openapi({
            description:
              'Why no answer came: timeout, connection_refused, connection_reset, dns_failure, tls_error, target_refused (the SSRF guard), not_configured, invalid_notification or network_error.',
          }),
          outcome: attemptOutcomeSchema,
          retryAt: timestamp.nullable(),
          responseSnippet: z
            .string()
            .nullable()
            .openapi({ description: 'The first 256 characters of the receiver’s answer, at most.' }),
        }),
      )
      .openapi({
        description: `One page of the attempts, newest first (${ALERT_WEBHOOK_LOG_MAX} by default); has_more and the cursors page through them.`,
      }),
    ...cursorPageFields,
    pending: z
      .array(
        z.object({
          deliveryId: z.uuid(),
          eventId: z.string(),
          eventType: alertNotificationTypeSchema,
          attempts: z.number().int(),
          nextAttemptAt: timestamp,
        }),
      )
      .openapi({ description: `Deliveries still to be made, oldest first (at most ${ALERT_WEBHOOK_LOG_MAX}).` }),
  })
  .openapi('AlertWebhookLog');
