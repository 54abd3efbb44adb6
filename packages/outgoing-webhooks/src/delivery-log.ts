import { alertNotificationTypeSchema } from '@vt/contracts';
import { ALERT_WEBHOOK_LOG_MAX, attemptOutcomeSchema } from '@vt/contracts/console';
import type { PrismaClient } from '@vt/db';

// What the console shows of one webhook's deliveries: its newest attempts, and what is still to
// be sent. Never a secret or a request; at most the receiver's first words. The text columns are
// held to their values by CHECK constraints, and parsed here rather than asserted.

export async function alertWebhookLog(db: PrismaClient, destinationId: string) {
  const [attempts, pending] = await Promise.all([
    db.webhookDeliveryAttempt.findMany({
      where: { destinationId },
      orderBy: [{ attemptedAt: 'desc' }, { attempt: 'desc' }],
      take: ALERT_WEBHOOK_LOG_MAX,
      include: { delivery: { select: { eventId: true, eventType: true } } },
    }),
    db.webhookDelivery.findMany({
      where: { destinationId, status: 'pending' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: ALERT_WEBHOOK_LOG_MAX,
    }),
  ]);
  return {
    webhookId: destinationId,
    attempts: attempts.map((a) => ({
      deliveryId: a.deliveryId,
      eventId: a.delivery.eventId,
      eventType: alertNotificationTypeSchema.parse(a.delivery.eventType),
      attempt: a.attempt,
      attemptedAt: a.attemptedAt.toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      errorClass: a.errorClass,
      outcome: attemptOutcomeSchema.parse(a.outcome),
      retryAt: a.retryAt?.toISOString() ?? null,
      responseSnippet: a.responseSnippet,
    })),
    pending: pending.map((d) => ({
      deliveryId: d.id,
      eventId: d.eventId,
      eventType: alertNotificationTypeSchema.parse(d.eventType),
      attempts: d.attempts,
      nextAttemptAt: d.nextAttemptAt.toISOString(),
    })),
  };
}
