import { randomUUID } from 'node:crypto';
import { type AlertNotificationInput, alertNotificationSchema } from '@vt/contracts';
import type { Prisma, PrismaClient } from '@vt/db';
import { enqueueBulk, type Queue, webhookDeliveryJob } from '@vt/queue';

// A notification becomes one delivery per active destination of its property, then one job per
// delivery. Two steps, because the rows belong to the caller's transaction (the alert that
// changed state, say) and a job queued before that commits could run before its row exists:
//
//   const ids = await db.$transaction((tx) => recordWebhookNotification(tx, propertyId, notification));
//   await enqueueWebhookDeliveries(queue, ids);
//
// If the process dies, or Redis is away, between the two, the rows are there: the sweep
// (sweep.ts) queues every due delivery that has no job.

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Records the notification for each active destination of the property (or for `destinationId`
 * alone), in the caller's transaction. Unique on (destination, event id): recording it again (a
 * replayed alert job) records nothing. Returns the deliveries it recorded.
 */
export async function recordWebhookNotification(
  db: Db,
  propertyId: string,
  input: AlertNotificationInput,
  options: { destinationId?: string } = {},
): Promise<string[]> {
  const notification = alertNotificationSchema.parse(input);
  if (notification.property.id !== propertyId) {
    throw new Error('recordWebhookNotification: the notification is about another property');
  }
  const only = options.destinationId ?? null;
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (id, destination_id, event_id, event_type, notification)
    SELECT gen_random_uuid(), w.id, ${notification.eventId}, ${notification.type}, ${JSON.stringify(notification)}::jsonb
    FROM webhook_destinations w
    WHERE w.property_id = ${propertyId}::uuid AND w.disabled_at IS NULL
      AND (${only}::uuid IS NULL OR w.id = ${only}::uuid)
    ON CONFLICT (destination_id, event_id) DO NOTHING
    RETURNING id::text`;
  return rows.map((row) => row.id);
}

/** One job per delivery, under the delivery's id: queueing one again is a no-op while its job exists. */
export async function enqueueWebhookDeliveries(queue: Queue, deliveryIds: readonly string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await enqueueBulk(
    queue,
    webhookDeliveryJob,
    deliveryIds.map((deliveryId) => ({ data: { deliveryId }, jobId: deliveryId })),
  );
}

/** The `alert.test` event a person sends from the console to one webhook, to see it arrive. */
export function alertTestNotification(
  property: { id: string; name: string; domain: string },
  now: Date,
): AlertNotificationInput {
  return {
    eventId: `test_${randomUUID()}`,
    type: 'alert.test',
    occurredAt: now.toISOString(),
    property: { id: property.id, name: property.name, domain: property.domain },
    text: `Test alert for ${property.name} (${property.domain}): this webhook receives the property's alerts.`,
    data: { test: true },
  };
}
