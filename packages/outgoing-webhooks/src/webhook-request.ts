import type { AlertNotification } from '@vt/contracts';
import { Webhook } from 'standardwebhooks';

// What a delivery posts, per format. Pure: the same notification, secret and time always make the
// same request.

export type WebhookFormat = 'slack' | 'standard';

/** Sent with every delivery, so a receiver's logs say where it came from. */
export const WEBHOOK_USER_AGENT = 'ai-visibility-alerts/1';

export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/** Slack reads `&`, `<` and `>` as markup (links, mentions): escaped, as its docs ask, so text stays text. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The Standard Webhooks event: `type` and `timestamp` beside `data`, as the specification
 * recommends; `data` carries the property, the line people read and what the alert measured.
 */
export function standardEventBody(notification: AlertNotification): string {
  return JSON.stringify({
    type: notification.type,
    timestamp: notification.occurredAt,
    data: { property: notification.property, text: notification.text, details: notification.data },
  });
}

/**
 * The request of one attempt. A standard event is signed at each attempt (its timestamp is the
 * attempt's, which receivers check against their clock), with the event id as `webhook-id`
 * across attempts, so a receiver deduplicates retries.
 */
export function webhookRequest(
  format: WebhookFormat,
  notification: AlertNotification,
  signing: { secret: string; at: Date } | null,
): WebhookRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT };
  if (format === 'slack') return { body: JSON.stringify({ text: slackEscape(notification.text) }), headers };
  if (!signing) throw new Error('a standard webhook needs its signing secret');
  const body = standardEventBody(notification);
  const signature = new Webhook(signing.secret).sign(notification.eventId, signing.at, body);
  return {
    body,
    headers: {
      ...headers,
      'webhook-id': notification.eventId,
      'webhook-timestamp': String(Math.floor(signing.at.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}
