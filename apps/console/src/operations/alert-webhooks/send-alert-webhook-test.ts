import { OperationError } from '@vt/contracts/console';
import { alertTestNotification, findAlertWebhook, recordWebhookNotification } from '@vt/outgoing-webhooks';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/**
 * POST /api/properties/{id}/alert-webhooks/{webhookId}/test: an `alert.test` event for this one
 * webhook, recorded, then queued (the sweep queues it if Redis is away), delivered like any alert.
 */
export const sendAlertWebhookTestHandler = defineConsoleHandler(
  'sendAlertWebhookTest',
  ({ db, alertWebhooks, now }) =>
    async ({ team, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      const destination = await findAlertWebhook(db, property.id, params.webhookId);
      const notification = alertTestNotification(property, now());
      const [deliveryId] = await recordWebhookNotification(db, property.id, notification, {
        destinationId: destination.id,
      });
      if (!deliveryId) {
        throw new OperationError('INVALID_PARAM', 'This webhook is switched off: enable it to send a test.');
      }
      await alertWebhooks.enqueueDeliveries([deliveryId]);
      return { delivery: { id: deliveryId, eventId: notification.eventId, status: 'pending' as const } };
    },
);
